import type pg from 'pg';
import { insertRow } from './factories.ts';

type Row = Record<string, unknown>;

/** An entity row (shard 0, realm 0) valid from `created`, with the given columns. */
export async function insertEntity(sql: pg.Client, id: bigint | number, created: bigint, row: Row = {}): Promise<void> {
  await insertRow(sql, 'entity', {
    id,
    num: id,
    realm: 0,
    shard: 0,
    type: 'ACCOUNT',
    created_timestamp: created,
    deleted: false,
    timestamp_range: `[${created},)`,
    ...row,
  });
}

/** A token with its TOKEN entity, valid from `created`; fungible with 2 decimals unless `row` says otherwise. */
export async function insertToken(
  sql: pg.Client,
  tokenId: bigint | number,
  created: bigint,
  row: Row = {},
): Promise<void> {
  await insertEntity(sql, tokenId, created, { type: 'TOKEN', memo: `token ${tokenId}` });
  await insertRow(sql, 'token', {
    token_id: tokenId,
    created_timestamp: created,
    decimals: 2,
    freeze_status: 0,
    kyc_status: 0,
    initial_supply: 1000,
    total_supply: 1000,
    name: `Token ${tokenId}`,
    symbol: `T${tokenId}`,
    treasury_account_id: 98,
    timestamp_range: `[${created},)`,
    ...row,
  });
}

/** An association of `accountId` with `tokenId` holding `balance`. */
export async function insertTokenAccount(
  sql: pg.Client,
  row: { account_id: bigint | number; token_id: bigint | number; balance: bigint | number } & Row,
): Promise<void> {
  await insertRow(sql, 'token_account', {
    associated: true,
    created_timestamp: 1,
    balance_timestamp: 1,
    timestamp_range: '[1,)',
    ...row,
  });
}

export async function insertNft(
  sql: pg.Client,
  row: { token_id: bigint | number; serial_number: bigint | number; created_timestamp: bigint } & Row,
): Promise<void> {
  await insertRow(sql, 'nft', {
    account_id: 1001,
    deleted: false,
    metadata: Buffer.from(`m${row.serial_number}`),
    timestamp_range: `[${row.created_timestamp},)`,
    ...row,
  });
}

/**
 * `count` associated holders of `tokenId`, accounts `firstAccount` on, with balances 1..count: seeded in Postgres
 * with generate_series, for tests that need realistic volumes.
 */
export async function seedTokenHolders(
  sql: pg.Client,
  tokenId: bigint,
  count: number,
  firstAccount: bigint,
): Promise<void> {
  await sql.query(
    `insert into token_account (account_id, associated, balance, balance_timestamp, created_timestamp,
                                timestamp_range, token_id)
     select $1::bigint + n - 1, true, n, n, 1, '[1,)', $2::bigint
       from generate_series(1, $3::bigint) n`,
    [firstAccount, tokenId, count],
  );
}
