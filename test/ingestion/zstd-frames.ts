/**
 * Zstandard frames built by hand (RFC 8878), for tests: Node 20 has no zstd compressor, and these
 * frames need none. A frame holds blocks stored as they are (raw) or as one byte repeated (RLE).
 */
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const MAX_BLOCK = 128 * 1024;

/** Frame header without content size or checksum, with a window large enough for `largestBlock`. */
function frameHeader(largestBlock: number): number[] {
  let exponent = 0;
  while (2 ** (10 + exponent) < largestBlock) exponent += 1;
  return [...MAGIC, 0x00, exponent << 3];
}

function blockHeader(last: boolean, type: 0 | 1, size: number): number[] {
  const header = (last ? 1 : 0) | (type << 1) | (size << 3);
  return [header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff];
}

/** `content` stored in raw blocks: a valid frame that decompresses to exactly `content`. */
export function rawZstdFrame(content: Uint8Array): Buffer {
  const parts: Buffer[] = [Buffer.from(frameHeader(Math.min(Math.max(content.length, 1), MAX_BLOCK)))];
  let start = 0;
  do {
    const end = Math.min(start + MAX_BLOCK, content.length);
    parts.push(Buffer.from(blockHeader(end === content.length, 0, end - start)), Buffer.from(content.subarray(start, end)));
    start = end;
  } while (start < content.length);
  return Buffer.concat(parts);
}

/** `blocks` RLE blocks of `blockSize` copies of `byte`: a few bytes that decompress to blocks × blockSize. */
export function rleZstdFrame(byte: number, blockSize: number, blocks: number): Buffer {
  const parts: number[] = frameHeader(blockSize);
  for (let i = 0; i < blocks; i += 1) parts.push(...blockHeader(i === blocks - 1, 1, blockSize), byte);
  return Buffer.from(parts);
}
