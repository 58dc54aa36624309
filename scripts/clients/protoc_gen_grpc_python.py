"""protoc-gen-grpc_python: grpcio-tools' gRPC stub generator as a protoc plugin, for buf.

grpcio-tools ships the generator built into its own protoc (`python -m grpc_tools.protoc
--grpc_python_out`), not as a plugin executable, and buf knows no built-in generator of that
name. This plugin reads buf's CodeGeneratorRequest, hands the same descriptors to grpc_tools'
protoc (`--descriptor_set_in`, so nothing is parsed twice), and answers with the files it wrote.
The generated code is exactly what `python -m grpc_tools.protoc --grpc_python_out` writes.

Run by scripts/clients/toolchain.ts's wrapper with the venv's python (grpcio-tools installed).
"""

from __future__ import annotations

import os
import sys
import tempfile

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc


def main() -> int:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    response = plugin_pb2.CodeGeneratorResponse()
    response.supported_features = plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL

    with tempfile.TemporaryDirectory(prefix="protoc-gen-grpc_python-") as work:
        descriptors = os.path.join(work, "descriptors.binpb")
        out = os.path.join(work, "out")
        os.mkdir(out)
        with open(descriptors, "wb") as f:
            f.write(descriptor_pb2.FileDescriptorSet(file=request.proto_file).SerializeToString())
        args = ["grpc_tools.protoc", f"--descriptor_set_in={descriptors}", f"--grpc_python_out={out}"]
        if request.parameter:
            args.append(f"--grpc_python_opt={request.parameter}")
        args.extend(request.file_to_generate)
        if protoc.main(args) != 0:
            response.error = "grpc_tools.protoc --grpc_python_out failed (its message is above)"
        else:
            for root, _dirs, files in os.walk(out):
                for name in sorted(files):
                    path = os.path.join(root, name)
                    generated = response.file.add()
                    generated.name = os.path.relpath(path, out)
                    with open(path, encoding="utf-8") as f:
                        generated.content = f.read()

    sys.stdout.buffer.write(response.SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main())
