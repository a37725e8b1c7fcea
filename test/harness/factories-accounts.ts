import type pg from 'pg';
import { insertRow } from './factories.ts';

type Row = Record<string, unknown>;
type Id = bigint | number;

/** An approved-for-all NFT allowance granted at `from` (still in force). */
export async function insertNftAllowance(
  sql: pg.Client,
  row: { owner: Id; spender: Id; token_id: Id; from?: bigint } & Row,
): Promise<void> {
  const { from = 1n, ...rest } = row;
  await insertRow(sql, 'nft_allowance', {
    approved_for_all: true,
    payer_account_id: row.owner,
    timestamp_range: `[${from},)`,
    ...rest,
  });
}

/** A pending airdrop; `serial_number` 0 (the default) is a fungible one, with `amount`. */
export async function insertTokenAirdrop(
  sql: pg.Client,
  row: { sender_account_id: Id; receiver_account_id: Id; token_id: Id; from?: bigint } & Row,
): Promise<void> {
  const { from = 1n, ...rest } = row;
  await insertRow(sql, 'token_airdrop', {
    serial_number: 0,
    amount: row.serial_number ? null : 10,
    state: 'PENDING',
    timestamp_range: `[${from},)`,
    ...rest,
  });
}

/** An hbar allowance with `amount` left of `amount_granted`. */
export async function insertCryptoAllowance(
  sql: pg.Client,
  row: { owner: Id; spender: Id; amount: Id; from?: bigint } & Row,
): Promise<void> {
  const { from = 1n, ...rest } = row;
  await insertRow(sql, 'crypto_allowance', {
    amount_granted: row.amount,
    payer_account_id: row.owner,
    timestamp_range: `[${from},)`,
    ...rest,
  });
}

/** A balance snapshot row of one account. */
export async function insertAccountBalance(
  sql: pg.Client,
  row: { account_id: Id; balance: Id; consensus_timestamp: bigint },
): Promise<void> {
  await insertRow(sql, 'account_balance', row);
}
