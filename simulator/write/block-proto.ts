/**
 * The block stream types the simulator writes with: the ingest's block stream schema (proto/block) for the
 * items, and block-stream.proto beside this file for what that schema keeps serialized (event headers, the block
 * signature, state values), all loaded into one root over the flat .proto set of @hiero-ledger/proto.
 */
import { fileURLToPath } from 'node:url';
import type protobuf from 'protobufjs';
import { BLOCK_STREAM_PROTO } from '../../proto/block.ts';
import { loadProtoRoot } from '../../proto/hapi.ts';

const SCHEMA = fileURLToPath(new URL('./block-stream.proto', import.meta.url));

/** The HAPI state message of each MapChangeValue the simulator writes. */
const STATE_VALUES = {
  account_value: 'proto.Account',
  bytecode_value: 'proto.Bytecode',
  file_value: 'proto.File',
  nft_value: 'proto.Nft',
  schedule_value: 'proto.Schedule',
  slot_value_value: 'proto.SlotValue',
  token_value: 'proto.Token',
  token_relation_value: 'proto.TokenRelation',
  topic_value: 'proto.Topic',
} as const;

export type StateValueKind = keyof typeof STATE_VALUES;

export interface BlockTypes {
  /** `repeated bytes items`: a block is written from its items as they were encoded (and hashed). */
  readonly Block: protobuf.Type;
  readonly BlockItem: protobuf.Type;
  readonly Timestamp: protobuf.Type;
  readonly EventHeader: protobuf.Type;
  readonly SignedBlockProof: protobuf.Type;
  readonly stateValues: Readonly<Record<StateValueKind, protobuf.Type>>;
}

let loaded: BlockTypes | undefined;

export function blockTypes(): BlockTypes {
  if (loaded) return loaded;
  const root = loadProtoRoot([BLOCK_STREAM_PROTO, SCHEMA]);
  root.resolveAll();
  loaded = {
    Block: root.lookupType('edge.block.Block'),
    BlockItem: root.lookupType('edge.block.BlockItem'),
    Timestamp: root.lookupType('proto.Timestamp'),
    EventHeader: root.lookupType('simulator.block.EventHeader'),
    SignedBlockProof: root.lookupType('simulator.block.SignedBlockProof'),
    stateValues: Object.fromEntries(
      Object.entries(STATE_VALUES).map(([kind, name]) => [kind, root.lookupType(name)]),
    ) as Record<StateValueKind, protobuf.Type>,
  };
  return loaded;
}
