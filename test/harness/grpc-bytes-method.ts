import type * as grpc from '@grpc/grpc-js';

const same = (value: Buffer) => value;

/**
 * A unary gRPC method whose requests and responses are left as bytes, for test servers that record or answer the
 * bytes themselves.
 */
export function bytesMethod(path: string): grpc.MethodDefinition<Buffer, Buffer> {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: same,
    requestDeserialize: same,
    responseSerialize: same,
    responseDeserialize: same,
  };
}
