/**
 * A plain gRPC client of the mirror API (no SDK): what the tests and the stream benchmark subscribe with. Objects
 * in and out are protobufjs plain objects with the .proto field names, 64-bit values as decimal strings.
 */
import * as grpc from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { CONSENSUS_SERVICE, mirrorTypes, NETWORK_SERVICE } from '../proto/mirror.ts';

export type ProtoObject = Record<string, unknown>;

export interface MirrorClient {
  subscribeTopic(query: ProtoObject): grpc.ClientReadableStream<ProtoObject>;
  getNodes(query: ProtoObject): grpc.ClientReadableStream<ProtoObject>;
  close(): void;
}

const encoder = (type: protobuf.Type) => (value: ProtoObject) =>
  Buffer.from(type.encode(type.fromObject(value)).finish());
const decoder = (type: protobuf.Type) => (bytes: Buffer) =>
  type.toObject(type.decode(bytes), { longs: String }) as ProtoObject;

/**
 * A client of `address` (`host:port`, plaintext). Each client has a connection of its own (not one shared by
 * every client of the address), so a benchmark's subscribers are spread over connections as separate SDK clients.
 */
export function mirrorClient(address: string): MirrorClient {
  const types = mirrorTypes();
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  return {
    subscribeTopic: (query) =>
      client.makeServerStreamRequest(
        `/${CONSENSUS_SERVICE}/subscribeTopic`,
        encoder(types.ConsensusTopicQuery),
        decoder(types.ConsensusTopicResponse),
        query,
      ),
    getNodes: (query) =>
      client.makeServerStreamRequest(
        `/${NETWORK_SERVICE}/getNodes`,
        encoder(types.AddressBookQuery),
        decoder(types.NodeAddress),
        query,
      ),
    close: () => client.close(),
  };
}
