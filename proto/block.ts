/**
 * The block stream and block node messages (proto/block/*.proto), loaded with protobufjs over the HAPI .proto set
 * of `@hiero-ledger/proto` that they import (its flat `src/proto/` copy, as proto/hapi.ts loads it). That
 * package's own block schema predates the blocks the network writes, so these messages are the project's own.
 */
import path from 'node:path';
import type protobuf from 'protobufjs';
import { loadProtoRoot } from './hapi.ts';

/** The block stream schema (the simulator writes its blocks with it too). */
export const BLOCK_STREAM_PROTO = path.join(import.meta.dirname, 'block', 'block_stream.proto');
const BLOCK_NODE_PROTO = path.join(import.meta.dirname, 'block', 'block_node.proto');

export interface BlockTypes {
  readonly Block: protobuf.Type;
  readonly BlockItem: protobuf.Type;
  readonly Timestamp: protobuf.Type;
  readonly AccountValue: protobuf.Type;
  readonly TokenValue: protobuf.Type;
  readonly NftValue: protobuf.Type;
  readonly TopicValue: protobuf.Type;
  readonly SlotValueValue: protobuf.Type;
  readonly BytecodeValue: protobuf.Type;
  readonly SubscribeStreamRequest: protobuf.Type;
  readonly SubscribeStreamResponse: protobuf.Type;
  readonly BlockItemSet: protobuf.Type;
  readonly ServerStatusRequest: protobuf.Type;
  readonly ServerStatusResponse: protobuf.Type;
}

let loaded: BlockTypes | undefined;

/** Loads (once) the block stream types. Field names keep the .proto spelling. */
export function blockTypes(): BlockTypes {
  if (loaded) return loaded;
  const root = loadProtoRoot([BLOCK_STREAM_PROTO, BLOCK_NODE_PROTO]);
  root.resolveAll();
  const type = (name: string) => root.lookupType(name);
  loaded = {
    Block: type('edge.block.Block'),
    BlockItem: type('edge.block.BlockItem'),
    Timestamp: type('proto.Timestamp'),
    AccountValue: type('edge.block.AccountValue'),
    TokenValue: type('edge.block.TokenValue'),
    NftValue: type('edge.block.NftValue'),
    TopicValue: type('edge.block.TopicValue'),
    SlotValueValue: type('edge.block.SlotValueValue'),
    BytecodeValue: type('edge.block.BytecodeValue'),
    SubscribeStreamRequest: type('org.hiero.block.api.SubscribeStreamRequest'),
    SubscribeStreamResponse: type('org.hiero.block.api.SubscribeStreamResponse'),
    BlockItemSet: type('org.hiero.block.api.BlockItemSet'),
    ServerStatusRequest: type('org.hiero.block.api.ServerStatusRequest'),
    ServerStatusResponse: type('org.hiero.block.api.ServerStatusResponse'),
  };
  return loaded;
}
