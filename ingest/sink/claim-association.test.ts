import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../../test/harness/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import type { RecordItem } from '../decode/record-item.ts';
import { resolveAirdrops } from '../derive/airdrop.ts';
import { FileRows } from '../derive/file-rows.ts';
import { TableSchema } from './schema.ts';
import { writeFileRows } from './writer.ts';

const TOKEN = 700n;
const SENDER = 10n;
/** Associated itself with the token at 50, before the claim. */
const ASSOCIATED = 20n;
/** Associated once, dissociated at 60. */
const DISSOCIATED = 21n;
/** Never associated. */
const NEW = 22n;
const CLAIM_AT = 900n;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  const row = { token_id: TOKEN, automatic_association: false, balance: 0, freeze_status: 0, kyc_status: 0 };
  await insertRow(db.sql, 'token_account', {
    ...row,
    account_id: ASSOCIATED,
    associated: true,
    created_timestamp: 50,
    timestamp_range: '[50,)',
  });
  await insertRow(db.sql, 'token_account', {
    ...row,
    account_id: DISSOCIATED,
    associated: false,
    created_timestamp: 40,
    timestamp_range: '[60,)',
  });
  const rows = new FileRows();
  const pending = (receiver: bigint) => ({
    sender_id: { accountNum: SENDER },
    receiver_id: { accountNum: receiver },
    fungible_token_type: { tokenNum: TOKEN },
  });
  const item = {
    consensusTimestamp: CLAIM_AT,
    successful: true,
    bodyName: 'tokenClaimAirdrop',
    body: { tokenClaimAirdrop: { pending_airdrops: [ASSOCIATED, DISSOCIATED, NEW].map(pending) } },
  } as unknown as RecordItem;
  resolveAirdrops({ item, rows, transaction: {}, hapiMinor: 60 }, 'CLAIMED');
  await db.sql.query('begin');
  await writeFileRows(db.sql, await TableSchema.load(db.sql), rows);
  await db.sql.query('commit');
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('a TokenClaimAirdrop', () => {
  it('associates the receiver unless it is associated already, whose relationship stays as it was', async () => {
    const current = await db.sql.query(
      `select account_id::int as account, associated, created_timestamp::int as created, timestamp_range::text as range
         from token_account order by account_id`,
    );
    expect(current.rows).toEqual([
      { account: Number(ASSOCIATED), associated: true, created: 50, range: '[50,)' },
      { account: Number(DISSOCIATED), associated: true, created: Number(CLAIM_AT), range: `[${CLAIM_AT},)` },
      { account: Number(NEW), associated: true, created: Number(CLAIM_AT), range: `[${CLAIM_AT},)` },
    ]);
    const history = await db.sql.query(
      'select account_id::int as account, associated, timestamp_range::text as range from token_account_history',
    );
    expect(history.rows).toEqual([{ account: Number(DISSOCIATED), associated: false, range: `[60,${CLAIM_AT})` }]);
  });
});
