/**
 * One block's items → a `ParsedBlock`, following the item grammar of ingest.md §3.3: header, then either a
 * wrapped record file or rounds of (event header, transactions), then footer and proofs. A transaction is a
 * signed_transaction followed by its result, outputs, trace data and the state changes stamped with its
 * consensus time; a signed transaction without a result is a system transaction and is skipped, and so are
 * state changes where a transaction or the footer is expected. Inner transactions of an atomic batch come from
 * the batch body, each paired with the next result. The root hash is recomputed over every item. Pure.
 */
import { blockTypes } from '../../proto/block.ts';
import { hapi } from '../../proto/hapi.ts';
import { BlockRootHasher, itemField } from './block-hash.ts';
import { FormatError } from './byte-reader.ts';
import { HASH_LENGTH, sha384 } from './hash.ts';
import { timestampNanos } from './ids.ts';
import { toPlain } from './plain.ts';
import type { SemanticVersion } from './record-file.ts';
import type { PbTimestamp } from './types.ts';

const HEADER = 1;
const EVENT_HEADER = 2;
const ROUND_HEADER = 3;
const SIGNED_TRANSACTION = 4;
const RESULT = 5;
const OUTPUT = 6;
const STATE_CHANGES = 7;
const PROOF = 9;
const RECORD_FILE = 10;
const TRACE = 11;
const FOOTER = 12;

// biome-ignore lint/suspicious/noExplicitAny: plain protobuf objects of the block schema, typed where read
export type Plain = Record<string, any>;

export interface BlockTransaction {
  /** The serialized SignedTransaction. */
  readonly signedTransactionBytes: Uint8Array;
  readonly bodyBytes: Uint8Array;
  /** SHA-384 of the SignedTransaction, or of the legacy `Transaction{body_bytes, sig_map}` when it asks for that. */
  readonly transactionHash: Uint8Array;
  /** When the legacy hash applies, the serialized `Transaction{body_bytes, sig_map}`. */
  readonly legacyTransactionBytes: Uint8Array | undefined;
  readonly result: Plain;
  readonly outputs: readonly Plain[];
  readonly traces: readonly Plain[];
  /** The StateChange entries of the state_changes items that carry this transaction's consensus time. */
  readonly stateChanges: readonly Plain[];
  readonly consensusTimestamp: bigint;
  /** True for an inner transaction taken from an atomic batch body. */
  readonly innerOfBatch: boolean;
}

export interface WrappedRecordFile {
  readonly creationTime: bigint;
  readonly recordFileContents: Uint8Array;
  readonly sidecarFileContents: readonly Uint8Array[];
  readonly amendments: readonly Uint8Array[];
  readonly version: number;
  readonly signatures: readonly { readonly nodeId: bigint; readonly signature: Uint8Array }[];
}

export interface ParsedBlock {
  /** The record_file name: the 19-digit number and `.blk`. */
  readonly name: string;
  readonly number: bigint;
  readonly hapiVersion: SemanticVersion;
  readonly softwareVersion: SemanticVersion;
  readonly blockTimestamp: bigint;
  readonly previousHash: Uint8Array;
  /** The recomputed block root hash. */
  readonly hash: Uint8Array;
  readonly roundStart: bigint | undefined;
  readonly roundEnd: bigint | undefined;
  readonly transactions: readonly BlockTransaction[];
  readonly wrapped: WrappedRecordFile | undefined;
  /** Bytes of the block as read (compressed for files). */
  readonly size: number;
}

interface Item {
  readonly field: number;
  readonly bytes: Uint8Array;
  readonly value: Plain;
}

function version(v: Plain | undefined): SemanticVersion {
  return { major: Number(v?.major ?? 0), minor: Number(v?.minor ?? 0), patch: Number(v?.patch ?? 0) };
}

class Cursor {
  index = 0;
  batch: Uint8Array[] | undefined;
  batchIndex = 0;
  readonly items: readonly Item[];
  constructor(items: readonly Item[]) {
    this.items = items;
  }

  /** The next item when it is `field`, skipping stray state changes unless outputs or traces may follow. */
  read(field: number): Item | undefined {
    while (this.index < this.items.length) {
      const item = this.items[this.index] as Item;
      if (item.field === field) {
        this.index++;
        return item;
      }
      if (item.field === STATE_CHANGES && field !== TRACE && field !== OUTPUT) {
        this.index++;
        continue;
      }
      return undefined;
    }
    return undefined;
  }
}

export function readBlock(name: string, rawItems: readonly Uint8Array[], size: number): ParsedBlock {
  const { BlockItem, Timestamp } = blockTypes();
  const hasher = new BlockRootHasher();
  const items: Item[] = rawItems.map((bytes, i) => {
    const field = itemField(bytes);
    hasher.add(field, bytes);
    try {
      return { field, bytes, value: toPlain(BlockItem.decode(bytes)) as Plain };
    } catch (error) {
      throw new FormatError(`${name}: item ${i} (field ${field}): ${(error as Error).message}`);
    }
  });
  const cursor = new Cursor(items);
  const header = cursor.read(HEADER)?.value.block_header as Plain | undefined;
  if (!header) throw new FormatError(`${name}: missing block header`);
  if ((header.hash_algorithm ?? 0) !== 0)
    throw new FormatError(`${name}: unsupported hash algorithm ${header.hash_algorithm}`);
  const number = BigInt(header.number ?? 0n);
  const recordFile = cursor.read(RECORD_FILE)?.value.record_file as Plain | undefined;
  const transactions: BlockTransaction[] = [];
  const rounds: bigint[] = [];
  if (!recordFile) readRounds(cursor, transactions, rounds, name);
  const footer = cursor.read(FOOTER)?.value.block_footer as Plain | undefined;
  if (!footer) throw new FormatError(`${name}: missing block footer`);
  const proof = cursor.read(PROOF)?.value.block_proof as Plain | undefined;
  if (!proof) throw new FormatError(`${name}: missing block proof`);
  while (cursor.read(PROOF)) {
    // Further proofs (a wrapped record block may also carry a state proof) are read past, not checked.
  }
  const previousHash = (footer.previous_block_root_hash as Uint8Array | undefined) ?? new Uint8Array();
  if (previousHash.length !== HASH_LENGTH) throw new FormatError(`${name}: footer has no previous block hash`);
  const timestampBytes = header.block_timestamp
    ? Timestamp.encode(Timestamp.fromObject(longs(header.block_timestamp))).finish()
    : new Uint8Array();
  const hash = hasher.root({
    previousBlockRootHash: previousHash,
    rootHashOfAllBlockHashesTree: footer.root_hash_of_all_block_hashes_tree ?? new Uint8Array(),
    startOfBlockStateRootHash: footer.start_of_block_state_root_hash ?? new Uint8Array(),
    blockTimestamp: timestampBytes,
  });
  let wrapped: WrappedRecordFile | undefined;
  if (recordFile) {
    const signed = proof.signed_record_file_proof as Plain | undefined;
    if (!signed) throw new FormatError(`${name}: wrapped record block without a signed record file proof`);
    wrapped = {
      creationTime: timestampNanos(recordFile.creation_time),
      recordFileContents: recordFile.record_file_contents ?? new Uint8Array(),
      sidecarFileContents: recordFile.sidecar_file_contents ?? [],
      amendments: recordFile.amendments ?? [],
      version: Number(signed.version ?? 0),
      signatures: (signed.record_file_signatures ?? []).map((s: Plain) => ({
        nodeId: BigInt(s.node_id ?? 0n),
        signature: s.signatures_bytes ?? new Uint8Array(),
      })),
    };
  }
  return {
    name,
    number,
    hapiVersion: version(header.hapi_proto_version),
    softwareVersion: version(header.software_version),
    blockTimestamp: timestampNanos(header.block_timestamp),
    previousHash,
    hash,
    roundStart: rounds[0],
    roundEnd: rounds.at(-1),
    transactions,
    wrapped,
    size,
  };
}

/** Plain bigint fields back to strings, which protobufjs' fromObject accepts for 64-bit fields. */
function longs(value: Plain): Plain {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
}

function readRounds(cursor: Cursor, out: BlockTransaction[], rounds: bigint[], name: string): void {
  for (let round = cursor.read(ROUND_HEADER); round; round = cursor.read(ROUND_HEADER)) {
    rounds.push(BigInt(round.value.round_header?.round_number ?? 0n));
    for (;;) {
      const before = cursor.index;
      cursor.read(EVENT_HEADER);
      readTransactions(cursor, out, name);
      if (cursor.index === before) break;
    }
  }
}

function nextSignedTransaction(cursor: Cursor): { bytes: Uint8Array; inner: boolean } | undefined {
  const item = cursor.read(SIGNED_TRANSACTION);
  if (item) return { bytes: item.value.signed_transaction as Uint8Array, inner: false };
  if (cursor.batch && cursor.batchIndex < cursor.batch.length) {
    return { bytes: cursor.batch[cursor.batchIndex++] as Uint8Array, inner: true };
  }
  return undefined;
}

function readTransactions(cursor: Cursor, out: BlockTransaction[], name: string): void {
  const types = hapi();
  for (let next = nextSignedTransaction(cursor); next; next = nextSignedTransaction(cursor)) {
    let signed: Plain;
    let body: Plain;
    try {
      signed = types.SignedTransaction.decode(next.bytes) as unknown as Plain;
      body = types.TransactionBody.decode(signed.bodyBytes ?? new Uint8Array()) as unknown as Plain;
    } catch (error) {
      throw new FormatError(`${name}: unreadable signed transaction: ${(error as Error).message}`);
    }
    const resultItem = cursor.read(RESULT);
    if (!resultItem) {
      // A failed inner transaction stops its batch: the rest never ran and have no results.
      if (next.inner) {
        cursor.batch = undefined;
        cursor.batchIndex = 0;
      }
      continue;
    }
    const result = resultItem.value.transaction_result as Plain;
    const outputs: Plain[] = [];
    const traces: Plain[] = [];
    const stateChanges: Plain[] = [];
    for (let item = cursor.read(OUTPUT); item; item = cursor.read(OUTPUT)) {
      outputs.push(item.value.transaction_output as Plain);
    }
    for (let item = cursor.read(TRACE); item; item = cursor.read(TRACE)) traces.push(item.value.trace_data as Plain);
    const consensusTimestamp = timestampNanos(result.consensus_timestamp as PbTimestamp | undefined);
    for (let item = cursor.read(STATE_CHANGES); item; item = cursor.read(STATE_CHANGES)) {
      const changes = item.value.state_changes as Plain;
      if (timestampNanos(changes.consensus_timestamp) !== consensusTimestamp) break;
      stateChanges.push(...(changes.state_changes ?? []));
    }
    let legacy: Uint8Array | undefined;
    if (signed.use_serialized_tx_message_hash_algorithm) {
      legacy = types.Transaction.encode({ bodyBytes: signed.bodyBytes, sigMap: signed.sigMap }).finish();
    }
    out.push({
      signedTransactionBytes: next.bytes,
      bodyBytes: signed.bodyBytes ?? new Uint8Array(),
      transactionHash: sha384(legacy ?? next.bytes),
      legacyTransactionBytes: legacy,
      result,
      outputs,
      traces,
      stateChanges,
      consensusTimestamp,
      innerOfBatch: next.inner,
    });
    const batch = body.atomic_batch?.transactions as Uint8Array[] | undefined;
    if (batch) {
      cursor.batch = batch;
      cursor.batchIndex = 0;
    }
  }
}
