/** What the ingest resumes from, read from the database it writes: the cursor, the address books, stakes. */
import type pg from 'pg';
import { parseAddressBook } from '../decode/address-book.ts';
import { fromHex } from '../decode/hash.ts';
import { FileRows } from '../derive/file-rows.ts';
import { ADDRESS_BOOK_101, ADDRESS_BOOK_102, AddressBooks, addVersionRows } from './address-books.ts';

/** The newest ingested record file: the next file must chain onto its hash. */
export interface Cursor {
  readonly name: string;
  readonly hash: Uint8Array;
  readonly index: bigint;
  readonly consensusEnd: bigint;
}

export async function loadCursor(client: pg.ClientBase): Promise<Cursor | undefined> {
  const result = await client.query<{ name: string; hash: string; index: string; consensus_end: string }>(
    'select name, hash, index, consensus_end from record_file order by consensus_end desc limit 1',
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return { name: row.name, hash: fromHex(row.hash), index: BigInt(row.index), consensusEnd: BigInt(row.consensus_end) };
}

async function pendingBookBytes(client: pg.ClientBase, fileId: bigint): Promise<Uint8Array | undefined> {
  const result = await client.query<{ file_data: Buffer }>(
    `select file_data from file_data
      where entity_id = $1 and consensus_timestamp >= coalesce(
        (select max(consensus_timestamp) from file_data where entity_id = $1 and transaction_type in (17, 19)), 0)
      order by consensus_timestamp`,
    [fileId.toString()],
  );
  if (result.rows.length === 0) return undefined;
  return new Uint8Array(Buffer.concat(result.rows.map((r) => r.file_data ?? Buffer.alloc(0))));
}

async function latestStakes(client: pg.ClientBase): Promise<Map<bigint, bigint>> {
  const result = await client.query<{ node_id: string; stake: string }>(
    'select node_id, stake from node_stake where consensus_timestamp = (select max(consensus_timestamp) from node_stake)',
  );
  return new Map(result.rows.map((r) => [BigInt(r.node_id), BigInt(r.stake)]));
}

export interface LoadedBooks {
  readonly books: AddressBooks;
  /** Rows that store the bootstrap book, when the database had none; written with the first file. */
  readonly bootstrapRows: FileRows | undefined;
}

/**
 * The current 0.0.102 book from `address_book`, or else the bootstrap book (which is then stored with the
 * first ingested file, valid from timestamp 1 like the reference's initial book). Without either, an error,
 * unless `optional` (native blocks verify nothing with it): then an empty book that only follows the book files.
 */
export async function loadAddressBooks(
  client: pg.ClientBase,
  bootstrap: Uint8Array | undefined,
  optional = false,
): Promise<LoadedBooks> {
  const stored = await client.query<{ file_data: Buffer }>(
    'select file_data from address_book where file_id = $1 order by start_consensus_timestamp desc limit 1',
    [ADDRESS_BOOK_102.toString()],
  );
  const pending = new Map<bigint, Uint8Array>();
  for (const file of [ADDRESS_BOOK_101, ADDRESS_BOOK_102]) {
    const bytes = await pendingBookBytes(client, file);
    if (bytes) pending.set(file, bytes);
  }
  const stakes = await latestStakes(client);
  const row = stored.rows[0];
  if (row) {
    return {
      books: new AddressBooks(parseAddressBook(new Uint8Array(row.file_data)), pending, stakes),
      bootstrapRows: undefined,
    };
  }
  if (!bootstrap && optional) return { books: new AddressBooks([], pending, stakes), bootstrapRows: undefined };
  if (!bootstrap) {
    throw new Error('no address book in the database: pass --address-book <file> (a NodeAddressBook protobuf)');
  }
  const nodes = parseAddressBook(bootstrap);
  const rows = new FileRows();
  addVersionRows(rows, { fileId: ADDRESS_BOOK_102, start: 1n, bytes: bootstrap, nodes }, undefined);
  return { books: new AddressBooks(nodes, pending, stakes), bootstrapRows: rows };
}
