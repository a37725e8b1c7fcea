/**
 * Record stream v6 files: gzip of `int32 6` followed by a protobuf RecordStreamFile, plus the one sidecar file
 * a record file points at (gzip protobuf SidecarFile). Fields are written in field-number order, as nodes do;
 * items are spliced in as already-encoded bytes (an embedded message and its bytes are the same on the wire).
 *
 * Hashes (what the ingest checks): file hash = SHA-384 of the decompressed file; metadata hash = SHA-384 of
 * (6, hapi major, minor, patch, start running hash, end running hash, block number); sidecar hash = SHA-384 of
 * the decompressed sidecar. The running hash chains item by item: SHA-384(previous ‖ the item as the
 * record stream object serialises it); ingest only checks that each file starts where the last one ended.
 */
import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { hapi } from '../../proto/hapi.ts';
import { sha384 } from '../hash.ts';
import { i64, timestampPb } from '../ledger/ids.ts';
import type { SimItem } from '../network/network.ts';

export const HAPI_VERSION = { major: 0, minor: 58, patch: 0 } as const;
const SHA_384 = 1;
/** Fast compression: readers only need valid gzip, and generation speed matters for large runs. */
const GZIP_LEVEL = 1;
const RECORD_STREAM_OBJECT_CLASS_ID = 0xe370929ba5429d8bn;
const SIDECAR_TYPES = { state_changes: 1, actions: 2, bytecode: 3 } as const;

export interface RecordFileOutput {
  /** The .rcd.gz bytes. */
  readonly data: Uint8Array;
  readonly fileHash: Uint8Array;
  readonly metadataHash: Uint8Array;
  readonly endRunningHash: Uint8Array;
  /** The sidecar .rcd.gz bytes, when any item has sidecar records. */
  readonly sidecar: Uint8Array | undefined;
  /** Decompressed sizes, for reporting. */
  readonly size: number;
}

const hashObject = (hash: Uint8Array) => ({ algorithm: SHA_384, length: 48, hash });

/** The next running hash: SHA-384 over the previous one and the item serialised as a record stream object. */
function nextRunningHash(previous: Uint8Array, transaction: Uint8Array, record: Uint8Array): Uint8Array {
  const head = new DataView(new ArrayBuffer(16));
  head.setBigUint64(0, RECORD_STREAM_OBJECT_CLASS_ID);
  head.setInt32(8, 1);
  head.setInt32(12, record.length);
  const txLength = new DataView(new ArrayBuffer(4));
  txLength.setInt32(0, transaction.length);
  return sha384(previous, new Uint8Array(head.buffer), record, new Uint8Array(txLength.buffer), transaction);
}

export function transactionBytes(item: SimItem): Uint8Array {
  return hapi().Transaction.encode({ signedTransactionBytes: item.signedTransactionBytes }).finish();
}

export function buildRecordFile(
  items: readonly SimItem[],
  startRunningHash: Uint8Array,
  blockNumber: bigint,
): RecordFileOutput {
  const types = hapi();
  const writer = protobuf.Writer.create();
  let running = startRunningHash;
  const head = types.RecordStreamFile.encode({
    hapi_proto_version: { minor: HAPI_VERSION.minor, ...(HAPI_VERSION.patch ? { patch: HAPI_VERSION.patch } : {}) },
    start_object_running_hash: hashObject(startRunningHash),
  }).finish();
  for (const item of items) {
    const transaction = transactionBytes(item);
    running = nextRunningHash(running, transaction, item.recordBytes);
    writer.uint32((3 << 3) | 2).fork();
    writer.uint32((1 << 3) | 2).bytes(transaction);
    writer.uint32((2 << 3) | 2).bytes(item.recordBytes);
    writer.ldelim();
  }
  const sidecar = buildSidecar(items);
  const tail = types.RecordStreamFile.encode({
    end_object_running_hash: hashObject(running),
    ...(blockNumber !== 0n ? { block_number: i64(blockNumber) } : {}),
    ...(sidecar ? { sidecars: [{ hash: hashObject(sidecar.hash), id: 1, types: sidecar.types }] } : {}),
  }).finish();

  const version = new Uint8Array([0, 0, 0, 6]);
  const body = writer.finish();
  const file = new Uint8Array(4 + head.length + body.length + tail.length);
  file.set(version, 0);
  file.set(head, 4);
  file.set(body, 4 + head.length);
  file.set(tail, 4 + head.length + body.length);

  const metadata = new DataView(new ArrayBuffer(16 + 96 + 8));
  metadata.setInt32(0, 6);
  metadata.setInt32(4, HAPI_VERSION.major);
  metadata.setInt32(8, HAPI_VERSION.minor);
  metadata.setInt32(12, HAPI_VERSION.patch);
  const metadataBytes = new Uint8Array(metadata.buffer);
  metadataBytes.set(startRunningHash, 16);
  metadataBytes.set(running, 64);
  metadata.setBigInt64(112, blockNumber);

  return {
    data: new Uint8Array(gzipSync(file, { level: GZIP_LEVEL })),
    fileHash: sha384(file),
    metadataHash: sha384(metadataBytes),
    endRunningHash: running,
    sidecar: sidecar?.data,
    size: file.length,
  };
}

function buildSidecar(items: readonly SimItem[]): { data: Uint8Array; hash: Uint8Array; types: number[] } | undefined {
  const records: Record<string, unknown>[] = [];
  const types = new Set<number>();
  for (const item of items) {
    for (const payload of item.sidecars) {
      for (const key of Object.keys(payload)) {
        const type = SIDECAR_TYPES[key as keyof typeof SIDECAR_TYPES];
        if (type) types.add(type);
      }
      records.push({ consensus_timestamp: timestampPb(item.consensusNs), ...payload });
    }
  }
  if (records.length === 0) return undefined;
  const bytes = hapi().SidecarFile.encode({ sidecar_records: records }).finish();
  return {
    data: new Uint8Array(gzipSync(bytes, { level: GZIP_LEVEL })),
    hash: sha384(bytes),
    types: [...types].sort(),
  };
}
