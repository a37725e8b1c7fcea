import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'ingest-simulated-'));
  simulated = (await simulate(parseOptions(['--out', out, '--files', '6', '--tps', '150', '--seed', 'ingest'])))
    .transactions;
  db = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await db.drop();
  rmSync(out, { recursive: true, force: true });
});

describe('record files of the simulated network', () => {
  it('are all verified and written, every transfer list balanced and inside its file', async () => {
    const run = await ingest();
    expect([run.files, run.transactions]).toEqual([6, simulated]);
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
  it('are not taken before 2 minutes past the first file plus 15 minutes of consensus time (a 12-second ledger)', async () => {
    expect((await db.sql.query('select count(*)::int as n from account_balance_file')).rows).toEqual([{ n: 0 }]);
  });
});
