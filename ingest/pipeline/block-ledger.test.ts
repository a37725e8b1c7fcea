import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { ingestNativeBlocks } from '../testing/ingest-blocks.ts';

const T = 1_770_000_000_000_000_000n;
const bytes = (fill: number, length = 4) => new Uint8Array(length).fill(fill);
const publication = (ledger: number, key: number) => ({
  ledger_id_publication: {
    ledger_id: bytes(ledger),
    history_proof_verification_key: bytes(key),
    node_contributions: [
      { node_id: 0, weight: 10, history_proof_key: bytes(0xa0, 3) },
      { node_id: 1, weight: 20, history_proof_key: bytes(0xb1, 3) },
    ],
  },
});

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  const run = await ingestNativeBlocks(db.url, [
    {
      timestamp: T,
      transactions: [
        { timestamp: T + 10n, body: publication(1, 0x11) },
        // Failed: no ledger row.
        { timestamp: T + 20n, body: publication(2, 0x22), status: 7 },
      ],
    },
    // The same ledger id published again replaces its row.
    { timestamp: T + 2_000_000_000n, transactions: [{ timestamp: T + 2_000_000_010n, body: publication(1, 0x33) }] },
  ]);
  // The generated proofs are TSS signatures the ingest does not verify: the blocks are accepted as they are.
  expect(run.blocks).toBe(2);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('ledger id publications in native blocks', () => {
  it('stores the ledger id, its verification key and node contributions of each successful one', async () => {
    const { rows } = await db.sql.query(
      `select encode(ledger_id, 'hex') as ledger_id, consensus_timestamp::text as ts,
              encode(history_proof_verification_key, 'hex') as key, node_contributions::text as contributions
         from ledger order by ledger_id`,
    );
    expect(rows.map((r) => ({ ...r, contributions: JSON.parse(r.contributions) }))).toEqual([
      {
        ledger_id: '01010101',
        ts: (T + 2_000_000_010n).toString(),
        key: '33333333',
        contributions: [
          { node_id: 0, weight: 10, history_proof_key: 'oKCg' },
          { node_id: 1, weight: 20, history_proof_key: 'sbGx' },
        ],
      },
    ]);
  });

  it('records the transactions as LEDGERIDPUBLICATION', async () => {
    const { rows } = await db.sql.query('select type, result from transaction order by consensus_timestamp');
    expect(rows).toEqual([
      { type: 77, result: 22 },
      { type: 77, result: 7 },
      { type: 77, result: 22 },
    ]);
  });
});
