/**
 * The consensus nodes' gRPC endpoints: one plaintext server per simulated node (node 0, account 0.0.3, on the base
 * port; node n on base + n, as the address book says), each serving the HAPI services a node serves. Requests and
 * responses pass as bytes: the node decodes them itself, so it sees exactly what the client signed. Every call is
 * answered with a HAPI response, never a gRPC error, as a node does for anything it can read.
 */
import * as grpc from '@grpc/grpc-js';
import type { SimEvm } from '../evm/evm.ts';
import type { ConsensusNode } from './consensus.ts';
import { code, nodeTypes } from './node-proto.ts';
import { answerQuery } from './queries/answer.ts';

export interface NodeServers {
  /** `host:port` of each node, node 0 first. */
  readonly addresses: readonly string[];
  close(): Promise<void>;
}

const bytes = (value: Buffer) => value;
const wallClockNs = () => BigInt(Date.now()) * 1_000_000n;

function definition(): grpc.ServiceDefinition {
  const methods: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
  for (const method of nodeTypes().methods) {
    methods[`${method.service}.${method.name}`] = {
      path: `/proto.${method.service}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: bytes,
      requestDeserialize: bytes,
      responseSerialize: bytes,
      responseDeserialize: bytes,
    };
  }
  return methods;
}

function transactionResponse(status: number): Buffer {
  const type = nodeTypes().TransactionResponse;
  return Buffer.from(type.encode({ nodeTransactionPrecheckCode: status }).finish());
}

export async function startNodeServers(options: {
  consensus: ConsensusNode;
  evm: SimEvm;
  nodeCount: number;
  host: string;
  basePort: number;
  log: (fields: Record<string, unknown>) => void;
}): Promise<NodeServers> {
  const { consensus, evm, log } = options;
  const servers: grpc.Server[] = [];
  const addresses: string[] = [];
  const service = definition();
  for (let nodeId = 0; nodeId < options.nodeCount; nodeId++) {
    const server = new grpc.Server();
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of nodeTypes().methods) {
      implementation[`${method.service}.${method.name}`] = (
        call: grpc.ServerUnaryCall<Buffer, Buffer>,
        callback: grpc.sendUnaryData<Buffer>,
      ) => {
        const request = new Uint8Array(call.request);
        if (method.kind === 'transaction') {
          let status: number;
          try {
            status = consensus.submit(request, nodeId, wallClockNs());
          } catch (error) {
            log({ msg: 'submit failed', method: method.name, error: String(error) });
            status = code('FAIL_INVALID');
          }
          callback(null, transactionResponse(status));
          return;
        }
        answerQuery(request, { consensus, evm, nodeId, nowNs: wallClockNs() }).then(
          (response) => callback(null, Buffer.from(response)),
          (error: unknown) => {
            log({ msg: 'query failed', method: method.name, error: String(error) });
            callback({ code: grpc.status.INTERNAL, details: 'the node could not answer' });
          },
        );
      };
    }
    server.addService(service, implementation);
    const port = options.basePort + nodeId;
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`${options.host}:${port}`, grpc.ServerCredentials.createInsecure(), (error) =>
        error
          ? reject(new Error(`node ${nodeId} cannot listen on ${options.host}:${port}: ${error.message}`))
          : resolve(),
      ),
    );
    servers.push(server);
    addresses.push(`${options.host}:${port}`);
  }
  return {
    addresses,
    close: async () => {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.tryShutdown(() => resolve()))));
    },
  };
}
