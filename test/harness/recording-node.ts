/**
 * A consensus node's CryptoService for tests of what the Rosetta API sends a node (`/construction/submit`): a
 * plaintext gRPC server on 127.0.0.1 that keeps every Transaction it receives, as bytes, and answers each with the
 * precheck code the test sets (OK unless told otherwise). It checks nothing itself; the tests read what it received.
 */
import * as grpc from '@grpc/grpc-js';
import { bytesMethod } from './grpc-bytes-method.ts';

export interface ReceivedTransaction {
  /** `cryptoTransfer` or `createAccount`. */
  readonly method: string;
  readonly transaction: Uint8Array;
}

export interface RecordingNode {
  readonly port: number;
  readonly received: ReceivedTransaction[];
  /** The precheck code the next answers carry (ResponseCodeEnum). */
  precheckCode: number;
  stop(): Promise<void>;
}

const method = (name: string) => bytesMethod(`/proto.CryptoService/${name}`);

/** TransactionResponse { nodeTransactionPrecheckCode } (proto3: OK is the empty message). */
const transactionResponse = (code: number): Buffer => (code === 0 ? Buffer.alloc(0) : Buffer.from([0x08, code]));

export async function startRecordingNode(): Promise<RecordingNode> {
  const server = new grpc.Server();
  const node: RecordingNode = {
    port: 0,
    received: [],
    precheckCode: 0,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
  const handler =
    (name: string) => (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      node.received.push({ method: name, transaction: Uint8Array.from(call.request) });
      callback(null, transactionResponse(node.precheckCode));
    };
  server.addService(
    { cryptoTransfer: method('cryptoTransfer'), createAccount: method('createAccount') },
    { cryptoTransfer: handler('cryptoTransfer'), createAccount: handler('createAccount') },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return Object.assign(node, { port });
}
