/**
 * The mirror node's gRPC API messages (`mirror_consensus_service.proto`, `mirror_mirror_network_service.proto` of
 * `@hiero-ledger/proto`), loaded with protobufjs over the flat HAPI set as proto/hapi.ts loads it. Field names keep
 * the .proto spelling (`topicID`, `consensusStartTime`, `file_id`).
 */
import type protobuf from 'protobufjs';
import { loadProtoRoot } from './hapi.ts';

export interface MirrorTypes {
  readonly ConsensusTopicQuery: protobuf.Type;
  readonly ConsensusTopicResponse: protobuf.Type;
  readonly AddressBookQuery: protobuf.Type;
  readonly NodeAddress: protobuf.Type;
  readonly TransactionID: protobuf.Type;
}

/** The fully qualified gRPC service names, as request paths spell them. */
export const CONSENSUS_SERVICE = 'com.hedera.mirror.api.proto.ConsensusService';
export const NETWORK_SERVICE = 'com.hedera.mirror.api.proto.NetworkService';

let loaded: MirrorTypes | undefined;

/** Loads (once) the mirror API's request and response types. */
export function mirrorTypes(): MirrorTypes {
  if (loaded) return loaded;
  const root = loadProtoRoot(['mirror_consensus_service.proto', 'mirror_mirror_network_service.proto']);
  root.resolveAll();
  const type = (name: string) => root.lookupType(name);
  loaded = {
    ConsensusTopicQuery: type('com.hedera.mirror.api.proto.ConsensusTopicQuery'),
    ConsensusTopicResponse: type('com.hedera.mirror.api.proto.ConsensusTopicResponse'),
    AddressBookQuery: type('com.hedera.mirror.api.proto.AddressBookQuery'),
    NodeAddress: type('proto.NodeAddress'),
    TransactionID: type('proto.TransactionID'),
  };
  return loaded;
}
