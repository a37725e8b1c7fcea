import type pg from 'pg';
import { insertRow } from './factories.ts';

export interface RecordFileInput extends Record<string, unknown> {
  index: bigint;
  consensus_start: bigint;
  consensus_end: bigint;
  /** 96 lowercase hex digits. */
  hash: string;
}

/** A record file (one block) with the schema's required columns filled, unless `row` says otherwise. */
export async function insertRecordFile(sql: pg.Client, row: RecordFileInput): Promise<void> {
  await insertRow(sql, 'record_file', {
    name: `${row.consensus_start}.rcd`,
    load_start: 0,
    load_end: 0,
    prev_hash: '0'.repeat(96),
    count: 3,
    digest_algorithm: 0,
    hapi_version_major: 0,
    hapi_version_minor: 54,
    hapi_version_patch: 1,
    version: 6,
    file_hash: 'ab'.repeat(48),
    gas_used: 0,
    logs_bloom: Buffer.alloc(0),
    size: 1024,
    ...row,
  });
}
