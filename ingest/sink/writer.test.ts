import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { FileRows } from '../derive/file-rows.ts';
import { TableSchema } from './schema.ts';
import { writeFileRows } from './writer.ts';

let db: TestDatabase;
let schema: TableSchema;

const KEY = new Uint8Array([1, 2, 3]);
/** Token 0.0.501 freezes by default with a KYC key; 502 has a freeze key only; 503 has neither. */
const TOKENS = [
  { id: 501n, freezeKey: KEY, freezeDefault: true, kycKey: KEY },
  { id: 502n, freezeKey: KEY, freezeDefault: false, kycKey: null },
  { id: 503n, freezeKey: null, freezeDefault: false, kycKey: null },
];
/** No token row: its token accounts keep no status. */
const UNKNOWN_TOKEN = 599n;

beforeAll(async () => {
  db = await createTestDatabase();
  for (const token of TOKENS) {
    await db.sql.query(
      `insert into token (token_id, created_timestamp, decimals, freeze_default, freeze_key, kyc_key, initial_supply,
                          name, symbol, treasury_account_id, timestamp_range, freeze_status, kyc_status)
       values ($1, 1, 0, $2, $3, $4, 0, 'T', 'T', 2, '[1,)', 0, 0)`,
      [token.id.toString(), token.freezeDefault, token.freezeKey, token.kycKey],
    );
  }
  schema = await TableSchema.load(db.sql);
}, 60_000);
afterAll(async () => {
  await db?.drop();
});

async function statuses(account: bigint): Promise<Record<string, [number | null, number | null]>> {
  const result = await db.sql.query<{ token_id: string; freeze_status: number | null; kyc_status: number | null }>(
    'select token_id, freeze_status, kyc_status from token_account where account_id = $1 order by token_id',
    [account.toString()],
  );
  return Object.fromEntries(result.rows.map((r) => [r.token_id, [r.freeze_status, r.kyc_status]]));
}

describe('token accounts a record file writes', () => {
  it("leave the freeze and KYC status NULL when associated or first credited (readers take the token's)", async () => {
    const ts = 1_000n;
    const rows = new FileRows();
    const associated = 1001n;
    for (const token of [...TOKENS.map((t) => t.id), UNKNOWN_TOKEN]) {
      rows.change(
        'token_account',
        {
          account_id: associated,
          token_id: token,
          associated: true,
          automatic_association: false,
          balance: 0n,
          balance_timestamp: ts,
          created_timestamp: ts,
        },
        ts,
      );
    }
    // Credited without an association (an airdrop's automatic one): the balance creates the row.
    const credited = 1002n;
    for (const token of [...TOKENS.map((t) => t.id), UNKNOWN_TOKEN]) rows.addTokenBalance(credited, token, 5n, ts + 1n);
    await writeFileRows(db.sql, schema, rows);

    const expected = { '501': [null, null], '502': [null, null], '503': [null, null], '599': [null, null] };
    expect(await statuses(associated)).toEqual(expected);
    expect(await statuses(credited)).toEqual(expected);
  });

  it('keep the association without status in the history row when the same file then freezes it', async () => {
    const account = 1004n;
    const rows = new FileRows();
    rows.change(
      'token_account',
      {
        account_id: account,
        token_id: 502n,
        associated: true,
        automatic_association: false,
        balance: 0n,
        balance_timestamp: 3_000n,
        created_timestamp: 3_000n,
      },
      3_000n,
    );
    rows.change('token_account', { account_id: account, token_id: 502n, associated: true, freeze_status: 1 }, 3_001n);
    await writeFileRows(db.sql, schema, rows);
    expect(await statuses(account)).toEqual({ '502': [1, null] });
    const history = await db.sql.query<{ freeze_status: number; kyc_status: number; timestamp_range: string }>(
      'select freeze_status, kyc_status, timestamp_range::text from token_account_history where account_id = $1',
      [account.toString()],
    );
    expect(history.rows).toEqual([{ freeze_status: null, kyc_status: null, timestamp_range: '[3000,3001)' }]);
  });

  it('keep the status of a row an earlier file wrote when a later file credits it', async () => {
    const account = 1003n;
    await db.sql.query(
      `insert into token_account (account_id, token_id, associated, balance, balance_timestamp, timestamp_range,
                                  freeze_status, kyc_status)
       values ($1, 501, true, 0, 10, '[10,)', 2, 1)`,
      [account.toString()],
    );
    const rows = new FileRows();
    rows.addTokenBalance(account, 501n, 7n, 2_000n);
    await writeFileRows(db.sql, schema, rows);
    expect(await statuses(account)).toEqual({ '501': [2, 1] });
  });
});
