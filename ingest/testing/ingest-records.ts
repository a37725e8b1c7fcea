/**
 * Hand-built record files run through the ingest's own derivation and writer into a test database: the column
 * tests build the records the importer's rules are about and read back the rows.
 */
import type pg from 'pg';
import { hapi } from '../../proto/hapi.ts';
import type { ParsedRecordFile, RawItem } from '../decode/record-file.ts';
import type { ParsedSidecarFile } from '../decode/sidecar-file.ts';
import { deriveRecordFile } from '../derive/record-file.ts';
import { TableSchema } from '../sink/schema.ts';
import { writeFileRows } from '../sink/writer.ts';
import { parsedRecordFile } from './parsed-record-file.ts';

export const SUCCESS = 22;
export const PAYER = 1001;

export interface ItemSpec {
  /** Consensus time: seconds, and nanos within the second. */
  readonly at: number;
  readonly nanos?: number;
  readonly payer?: number;
  /** TransactionBody fields besides the transaction id (the service body and any header field). */
  readonly body: Record<string, unknown>;
  /** TransactionRecord fields besides the consensus time, transaction id and receipt status. */
  readonly record?: Record<string, unknown>;
  readonly status?: number;
  /** Receipt fields besides the status. */
  readonly receipt?: Record<string, unknown>;
  /** A child record: the consensus time of its parent, and its nonce. */
  readonly parent?: { readonly at: number; readonly nanos?: number };
  readonly nonce?: number;
  readonly scheduled?: boolean;
  readonly sigMap?: Record<string, unknown>;
  /** Built from a block stream (its TransactionResult's congestion multiplier marks it). */
  readonly blockStream?: boolean;
}

/** One (transaction, record) pair as a record file holds it. */
export function recordItem(spec: ItemSpec): RawItem {
  const types = hapi();
  const transactionID = {
    accountID: { accountNum: spec.payer ?? PAYER },
    transactionValidStart: { seconds: spec.at - 5 },
    ...(spec.nonce ? { nonce: spec.nonce } : {}),
    ...(spec.scheduled ? { scheduled: true } : {}),
  };
  const body = types.TransactionBody.fromObject({ transactionID, transactionFee: 100, ...spec.body });
  const bodyBytes = types.TransactionBody.encode(body).finish();
  const signed = types.SignedTransaction.encode(
    types.SignedTransaction.fromObject({ bodyBytes, sigMap: spec.sigMap ?? {} }),
  ).finish();
  const record = types.TransactionRecord.fromObject({
    consensusTimestamp: { seconds: spec.at, nanos: spec.nanos ?? 0 },
    transactionID,
    transactionHash: Buffer.alloc(48, spec.at % 256),
    ...(spec.parent ? { parent_consensus_timestamp: { seconds: spec.parent.at, nanos: spec.parent.nanos ?? 0 } } : {}),
    ...spec.record,
    receipt: { status: spec.status ?? SUCCESS, ...spec.receipt },
  });
  return {
    transaction: types.Transaction.encode(types.Transaction.fromObject({ signedTransactionBytes: signed })).finish(),
    record: types.TransactionRecord.encode(record).finish(),
    ...(spec.blockStream ? { congestionPricingMultiplier: 0n } : {}),
  };
}

export interface FileOptions {
  readonly hapiMinor?: number;
  readonly sidecars?: readonly ParsedSidecarFile[];
  readonly overrides?: Partial<ParsedRecordFile>;
}

/**
 * Derives a record file of `items` and writes it in one transaction, as the ingest does; files written one after
 * the other chain by index and get distinct names.
 */
export async function ingestItems(sql: pg.Client, items: readonly ItemSpec[], options: FileOptions = {}) {
  const previous = await sql.query<{ index: string | null }>('select max(index)::text as index from record_file');
  const index = BigInt(previous.rows[0]?.index ?? '0') + 1n;
  const file = parsedRecordFile(items.map(recordItem), {
    name: `2025-01-01T00_00_${String(index).padStart(2, '0')}.000000000Z.rcd`,
    hapiVersion: { major: 0, minor: options.hapiMinor ?? 60, patch: 0 },
    blockNumber: index,
    sidecars: (options.sidecars ?? []).map((_, i) => ({ id: i + 1, hash: new Uint8Array(48), types: [] })),
    ...options.overrides,
  });
  const schema = await TableSchema.load(sql);
  const derived = deriveRecordFile(file, {
    index,
    loadStart: 0n,
    sidecars: (options.sidecars ?? []).map((sidecar, i) => ({
      name: `sidecar-${index}-${i + 1}.rcd`,
      id: i + 1,
      types: [],
      file: sidecar,
    })),
    columnKinds: schema.columnKinds(),
  });
  await sql.query('begin');
  try {
    await writeFileRows(sql, schema, derived.rows);
    await sql.query('commit');
  } catch (error) {
    await sql.query('rollback');
    throw error;
  }
  return derived;
}

/** The rows of a query, for `toEqual` against plain objects. */
export async function rowsOf(sql: pg.Client, text: string): Promise<Record<string, unknown>[]> {
  return (await sql.query(text)).rows as Record<string, unknown>[];
}
