import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_SUPPLY_TINYBARS } from '../../simulator/ledger/ledger.ts';
import { parseOptions } from '../../simulator/main.ts';
import { simulate } from '../../simulator/run.ts';
import { ADDRESS_BOOK_FILE } from '../../simulator/write/layout.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { DirStore } from '../sources/dir-store.ts';
import { rowCounts, rowsOutsideRecordFiles, unbalancedTransactions } from '../testing/database-facts.ts';
import { ingestStore } from '../testing/fixtures.ts';

let out: string;
let db: TestDatabase;
let simulated: number;

async function ingest() {
  const book = new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE)));
  const store = new DirStore(out);
  return ingestStore(db.url, store, '', { bootstrapAddressBook: book });
}

/** Files written: the genesis file and six of traffic, then one more of traffic twenty minutes later. */
const FILES = 8;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'ingest-simulated-'));
  const args = ['--out', out, '--tps', '150', '--seed', 'ingest'];
  simulated = (await simulate(parseOptions([...args, '--files', '6']))).transactions;
  simulated += (
    await simulate(parseOptions([...args, '--files', '1', '--continue', '--start', '2025-01-01T00:20:00Z']))
  ).transactions;
  db = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await db.drop();
  rmSync(out, { recursive: true, force: true });
});

describe('record files of the simulated network', () => {
  it('are all verified and written, every transfer list balanced and inside its file', async () => {
    const run = await ingest();
    expect([run.files, run.transactions]).toEqual([FILES, simulated]);
    expect(await unbalancedTransactions(db.sql)).toEqual([]);
    for (const table of ['transaction', 'crypto_transfer', 'token_transfer', 'topic_message', 'contract_log']) {
      expect(await rowsOutsideRecordFiles(db.sql, table), table).toEqual([]);
    }
  });

  it('give every successful HTS transfer a synthetic Transfer log from its token', async () => {
    const missing = await db.sql.query(
      `select t.consensus_timestamp::text from transaction t
        where t.result = 22 and exists (select 1 from token_transfer tt where tt.consensus_timestamp = t.consensus_timestamp)
          and not exists (select 1 from contract_log l where l.consensus_timestamp = t.consensus_timestamp and l.synthetic)`,
    );
    expect(missing.rows).toEqual([]);
    const logs = await db.sql.query(
      `select count(*)::int as n, count(*) filter (where encode(topic0, 'hex') <> 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' or contract_id <> root_contract_id)::int as odd
         from contract_log where synthetic`,
    );
    expect(logs.rows[0].n).toBeGreaterThan(0);
    expect(logs.rows[0].odd).toBe(0);
  });

  it('are not written twice when the ingest runs again', async () => {
    const before = await rowCounts(db.sql);
    expect((await ingest()).files).toBe(0);
    expect(await rowCounts(db.sql)).toEqual(before);
  });
});

describe('balance snapshots', () => {
  it('begin with the genesis balance file: every account at the chain start, the treasury holding the whole supply', async () => {
    const files = await db.sql.query(
      'select consensus_timestamp::text, count::int, name from account_balance_file where not synthetic',
    );
    const first = await db.sql.query('select consensus_start::text from record_file order by consensus_end limit 1');
    expect(files.rows).toEqual([
      { consensus_timestamp: expect.any(String), count: 8, name: '2024-12-31T23_59_57.999999999Z_Balances.pb.gz' },
    ]);
    expect(BigInt(files.rows[0].consensus_timestamp)).toBeLessThan(BigInt(first.rows[0].consensus_start));
    const snapshot = await db.sql.query(
      'select account_id::text, balance::text from account_balance where consensus_timestamp = $1 order by account_balance.account_id',
      [files.rows[0].consensus_timestamp],
    );
    expect(snapshot.rows).toEqual(
      ['2', '3', '4', '5', '6', '98', '800', '801'].map((account_id) => ({
        account_id,
        balance: account_id === '2' ? String(TOTAL_SUPPLY_TINYBARS) : '0',
      })),
    );
  });

  it('go on 15 minutes after it, with every balance at the end of the first file past then', async () => {
    const files = await db.sql.query(
      'select consensus_timestamp::text, count::int from account_balance_file where synthetic order by consensus_timestamp',
    );
    const last = await db.sql.query('select max(consensus_end)::text as at from record_file');
    expect(files.rows).toEqual([{ consensus_timestamp: last.rows[0].at, count: expect.any(Number) }]);
    const counted = await db.sql.query(
      'select count(*)::int as n from account_balance where consensus_timestamp = $1',
      [last.rows[0].at],
    );
    expect(counted.rows[0].n).toBe(files.rows[0].count);
    expect(counted.rows[0].n).toBeGreaterThan(0);
  });
});
