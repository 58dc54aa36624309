/**
 * Adler-32 (RFC 1950), the checksum Snuba's metrics processors hash a time series with
 * (metric-timeseries-id.ts). Fed in pieces, like the `adler` crate Snuba uses.
 */
const MODULUS = 65_521;
/** The sums are reduced every this many bytes (zlib's NMAX: the most that keeps them within 32 bits). */
const BLOCK = 5_552;

const UTF8 = new TextEncoder();

export class Adler32 {
  private a = 1;
  private b = 0;

  update(bytes: Uint8Array): this {
    let { a, b } = this;
    for (let start = 0; start < bytes.length; start += BLOCK) {
      const end = Math.min(start + BLOCK, bytes.length);
      for (let i = start; i < end; i += 1) {
        a += bytes[i]!;
        b += a;
      }
      a %= MODULUS;
      b %= MODULUS;
    }
    this.a = a;
    this.b = b;
    return this;
  }

  /** The UTF-8 bytes of `text`, without encoding it first while it is ASCII (tag keys and most values). */
  updateText(text: string): this {
    let { a, b } = this;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.a = a % MODULUS;
        this.b = b % MODULUS;
        return this.update(UTF8.encode(text.slice(i)));
      }
      a += code;
      b += a;
      if ((i + 1) % BLOCK === 0) {
        a %= MODULUS;
        b %= MODULUS;
      }
    }
    this.a = a % MODULUS;
    this.b = b % MODULUS;
    return this;
  }

  /** The 8 little-endian bytes of an unsigned 64-bit integer. */
  updateU64LittleEndian(value: bigint): this {
    let low = Number(BigInt.asUintN(32, value));
    let high = Number(BigInt.asUintN(32, value >> 32n));
    let { a, b } = this;
    for (let i = 0; i < 4; i += 1) {
      a += low & 0xff;
      b += a;
      low >>>= 8;
    }
    for (let i = 0; i < 4; i += 1) {
      a += high & 0xff;
      b += a;
      high >>>= 8;
    }
    this.a = a % MODULUS;
    this.b = b % MODULUS;
    return this;
  }

  /** The checksum of everything fed so far, an unsigned 32-bit integer. */
  digest(): number {
    return ((this.b << 16) | this.a) >>> 0;
  }
}
