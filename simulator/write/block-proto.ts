/**
 * The block stream schema (block-stream.proto beside this file) loaded with protobufjs over the flat .proto set
 * of @hiero-ledger/proto, the way proto/hapi.ts loads the HAPI: imports resolve to sibling files of that set.
 */
import { fileURLToPath } from 'node:url';
import type protobuf from 'protobufjs';
import { loadProtoRoot } from '../../proto/hapi.ts';

const SCHEMA = fileURLToPath(new URL('./block-stream.proto', import.meta.url));

export interface BlockTypes {
  readonly Block: protobuf.Type;
  readonly BlockItem: protobuf.Type;
  readonly Timestamp: protobuf.Type;
}

let loaded: BlockTypes | undefined;

export function blockTypes(): BlockTypes {
  if (loaded) return loaded;
  const root = loadProtoRoot([SCHEMA]);
  root.resolveAll();
  loaded = {
    Block: root.lookupType('simulator.block.Block'),
    BlockItem: root.lookupType('simulator.block.BlockItem'),
    Timestamp: root.lookupType('proto.Timestamp'),
  };
  return loaded;
}
