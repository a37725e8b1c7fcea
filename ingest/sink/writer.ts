/**
 * Writes one record file's rows in ONE database transaction, the `record_file` row last: that row is the
 * ingest cursor (the next file must chain onto the newest one), so a crash before COMMIT leaves neither
 * rows nor cursor, and a replay of a committed file is recognised and skipped.
 */
import type pg from 'pg';
import type { FileRows } from '../derive/file-rows.ts';
import { bulkInsert } from './bulk-insert.ts';
import { restoreCallDataHashes } from './call-data-hash.ts';
import { copyGroups, copyInsert } from './copy-insert.ts';
import { applyDissociateTransfers } from './dissociate.ts';
import { fileStatements } from './file-statements.ts';
import { applyNftTreasuryChanges } from './nft-treasury.ts';
import type { TableSchema } from './schema.ts';
import { runStatements, type Statement } from './statement.ts';

/**
 * The file's plain inserts already in COPY data (every table but the few kept as row objects). No upsert of any file
 * reads or writes these tables, so they can be written before the previous file's transaction commits, on another
 * connection (ingest/pipeline/run.ts).
 */
export async function copyFileRows(client: pg.ClientBase, rows: FileRows): Promise<void> {
  for (const [table, groups] of rows.copies?.tables ?? []) await copyGroups(client, table, groups);
}

/**
 * The rest of the file, after `copyFileRows`: upserts, address book versions, the rows kept as objects, the writes
 * that amend COPY rows (dissociations, NFT treasury changes, call data hashes), and the `record_file` row last. `planned` is
 * `fileStatements(schema, rows)` built earlier (by the prepare worker); without it they are built here.
 */
export async function writeFileState(
  client: pg.ClientBase,
  schema: TableSchema,
  rows: FileRows,
  planned?: readonly Statement[],
): Promise<void> {
  await runStatements(client, planned ?? fileStatements(schema, rows));
  for (const [fileId, end] of rows.closedAddressBooks) {
    await client.query(
      'update address_book set end_consensus_timestamp = $2 where file_id = $1 and end_consensus_timestamp is null',
      [fileId.toString(), end.toString()],
    );
  }
  for (const [table, list] of rows.inserts) {
    if (table !== 'record_file') await copyInsert(client, schema, table, list);
  }
  await applyDissociateTransfers(client, rows.dissociateTransfers);
  await applyNftTreasuryChanges(client, rows.nftTreasuryChanges);
  await restoreCallDataHashes(client, rows.callDataFromFiles);
  await bulkInsert(client, schema, 'record_file', rows.rows('record_file'));
}

export async function writeFileRows(client: pg.ClientBase, schema: TableSchema, rows: FileRows): Promise<void> {
  await copyFileRows(client, rows);
  await writeFileState(client, schema, rows);
}
