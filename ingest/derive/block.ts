/**
 * One block → the rows a record file would produce, plus its `record_file` row (version 7, no file hash, the
 * root hash as its hash, round range, software version). A wrapped record block is its record file: the rows
 * and `record_file` row of that file (its name, index and hashes), with the block's own hashes kept beside.
 */
import { blockSidecarRecords } from '../decode/block-evm.ts';
import type { ParsedBlock } from '../decode/block-reader.ts';
import { blockRecordItems } from '../decode/block-record.ts';
import { unwrapRecordFile } from '../decode/block-wrapped.ts';
import type { ParsedRecordFile, SemanticVersion } from '../decode/record-file.ts';
import { type DerivedFile, deriveRecordFile } from './record-file.ts';

export const BLOCK_FILE_VERSION = 7;

export interface DerivedBlock extends DerivedFile {
  /** What the next block's (or record file's) previous hash must equal: `record_file.hash`. */
  readonly hash: Uint8Array;
  readonly name: string;
  readonly index: bigint;
}

function setVersion(row: Record<string, unknown>, prefix: string, version: SemanticVersion | undefined): void {
  row[`${prefix}_major`] = version?.major ?? null;
  row[`${prefix}_minor`] = version?.minor ?? null;
  row[`${prefix}_patch`] = version?.patch ?? null;
}

function recordFileRow(derived: DerivedFile): Record<string, unknown> {
  const row = derived.rows.rows('record_file')[0];
  if (!row) throw new Error('derivation wrote no record_file row');
  return row as Record<string, unknown>;
}

export function deriveBlock(block: ParsedBlock, loadStart: bigint): DerivedBlock {
  if (block.wrapped) {
    const { parsed, index, sidecars } = unwrapRecordFile(block.wrapped);
    const derived = deriveRecordFile(parsed, { index, loadStart, sidecars });
    const row = recordFileRow(derived);
    row.wrapped_record_block_hash = block.hash;
    row.previous_wrapped_record_block_hash = block.previousHash;
    return { ...derived, hash: parsed.hash, name: parsed.name, index };
  }
  const file: ParsedRecordFile = {
    name: block.name,
    version: BLOCK_FILE_VERSION,
    hapiVersion: block.hapiVersion,
    previousHash: block.previousHash,
    hash: block.hash,
    fileHash: new Uint8Array(),
    metadataHash: undefined,
    blockNumber: block.number,
    items: blockRecordItems(block.transactions),
    sidecars: [],
    size: block.size,
  };
  const derived = deriveRecordFile(file, {
    index: block.number,
    loadStart,
    sidecars: [],
    emptyFileInstant: block.blockTimestamp,
    evmRecords: blockSidecarRecords(block.transactions),
  });
  const row = recordFileRow(derived);
  setVersion(row, 'software_version', block.softwareVersion);
  row.round_start = block.roundStart ?? null;
  row.round_end = block.roundEnd ?? null;
  return { ...derived, hash: block.hash, name: block.name, index: block.number };
}
