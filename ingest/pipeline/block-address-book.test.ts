import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { parseAddressBook } from '../decode/address-book.ts';
import { addressBook } from '../testing/fixtures.ts';
import { ingestNativeBlocks } from '../testing/ingest-blocks.ts';

const T = 1_770_000_000_000_000_000n;
const book = addressBook('testnet');
const nodes = parseAddressBook(book);
// Cut inside the first node entry, so the first part alone is no book.
const [head, tail] = [book.subarray(0, 10), book.subarray(10)];
const file = (num: number) => ({ fileNum: num });

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  const run = await ingestNativeBlocks(db.url, [
    {
      timestamp: T,
      transactions: [
        { timestamp: T + 10n, body: { fileUpdate: { fileID: file(101), contents: book } } },
        { timestamp: T + 20n, body: { fileUpdate: { fileID: file(102), contents: head } } },
      ],
    },
    // The append that completes 0.0.102 comes in the next block: the book files are followed across blocks. An
    // update without contents (a key or memo change) has its file_data row but is no book version.
    {
      timestamp: T + 2_000_000_000n,
      transactions: [
        { timestamp: T + 2_000_000_005n, body: { fileUpdate: { fileID: file(101) } } },
        { timestamp: T + 2_000_000_010n, body: { fileAppend: { fileID: file(102), contents: tail } } },
      ],
    },
  ]);
  expect(run.blocks).toBe(2);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

const query = async (text: string) => (await db.sql.query(text)).rows as Record<string, unknown>[];

describe('address book files in native blocks', () => {
  it('starts a book version after each update or append that completes a book, as record files do', async () => {
    expect(() => parseAddressBook(head)).toThrow();
    expect(
      await query(
        `select file_id::int as file, start_consensus_timestamp::text as start, end_consensus_timestamp as end,
                node_count, encode(file_data, 'hex') = '${Buffer.from(book).toString('hex')}' as whole
           from address_book order by start_consensus_timestamp`,
      ),
    ).toEqual([
      { file: 101, start: (T + 11n).toString(), end: null, node_count: 4, whole: true },
      { file: 102, start: (T + 2_000_000_011n).toString(), end: null, node_count: 4, whole: true },
    ]);
  });

  it('writes the entries and service endpoints of each version', async () => {
    const entries = await query(
      `select consensus_timestamp::text as ts, node_id::int as node, node_account_id::int as account
         from address_book_entry order by consensus_timestamp, node_id`,
    );
    const expected = (ts: bigint) =>
      nodes.map((n) => ({ ts: ts.toString(), node: Number(n.nodeId), account: Number(n.nodeAccountId) }));
    expect(entries).toEqual([...expected(T + 11n), ...expected(T + 2_000_000_011n)]);
    const endpoints = await query('select count(*)::int as n from address_book_service_endpoint');
    expect(endpoints[0]?.n).toBe(2 * nodes.reduce((sum, n) => sum + n.endpoints.length, 0));
  });

  it('keeps the file contents as file_data rows', async () => {
    expect(
      await query(
        'select entity_id::int as file, transaction_type as type from file_data order by consensus_timestamp',
      ),
    ).toEqual([
      { file: 101, type: 19 },
      { file: 102, type: 19 },
      { file: 101, type: 19 },
      { file: 102, type: 16 },
    ]);
  });
});
