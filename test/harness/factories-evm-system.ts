import type { ExecResult } from '@ethereumjs/evm';
import type pg from 'pg';
import { expect } from 'vitest';
import type { RedirectKind } from '../../common/redirect-bytecode.ts';
import type { Database } from '../../db/client.ts';
import { longZeroAddress } from '../../workers/evm/addresses.ts';
import { SessionLedger } from '../../workers/evm/ledger-reader.ts';
import { AbiArgs } from '../../workers/evm/system/abi.ts';
import { type SystemEvm, systemEvm } from '../../workers/evm/system/testing/system-evm.ts';
import type { BlockContext } from '../../workers/evm/types.ts';
import { GENESIS, insertBlocks, ledgerBlock, SECOND, TESTNET_SETTINGS } from './evm-session.ts';
import { insertRow } from './factories.ts';
import { insertAccountBalance, insertNftAllowance } from './factories-accounts.ts';
import { insertEntity, insertNft, insertToken, insertTokenAccount } from './factories-tokens.ts';

type Redirect = { kind: RedirectKind; address: Uint8Array };

/** The token ledger of the system contract tests: entity ids and blocks. */
export const SNAPSHOT = GENESIS + 30n * SECOND;
export const HOLDER = 1001n;
export const SPENDER = 1002n;
export const ALIASED = 1003n;
export const FUNGIBLE = 1500n;
export const NFT = 1600n;
export const ALIAS = Buffer.from('7f'.repeat(20), 'hex');
export const ADMIN_KEY = Buffer.from(`1220${'ab'.repeat(32)}`, 'hex');

/** Block 10 closes between the transfers before it and those after it. */
export const past = ledgerBlock(10n, SNAPSHOT + 8n * SECOND, { historical: true });
export const latest = ledgerBlock(20n, SNAPSHOT + 100n * SECOND);

/**
 * A ledger with a fungible token (custom fee, admin and freeze keys, an allowance, balances moved before and after
 * block 10) and an NFT (serials moved and burned after block 10), held by a plain account and one with an EVM
 * address.
 */
export async function seedTokenLedger(sql: pg.Client): Promise<void> {
  await insertBlocks(sql, [past, latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, HOLDER, GENESIS, { balance: 100n });
  await insertEntity(sql, SPENDER, GENESIS, { balance: 100n });
  await insertEntity(sql, ALIASED, GENESIS, { balance: 100n, evm_address: ALIAS });
  await insertToken(sql, FUNGIBLE, GENESIS, {
    name: 'Gold',
    symbol: 'GLD',
    decimals: 2,
    total_supply: 1000,
    supply_type: 'FINITE',
    max_supply: 5000,
    treasury_account_id: HOLDER,
    freeze_key: ADMIN_KEY,
    freeze_default: false,
  });
  await sql.query('update entity set key = $1, expiration_timestamp = $2, auto_renew_period = 7776000 where id = $3', [
    ADMIN_KEY,
    GENESIS + 7_776_000n * SECOND,
    FUNGIBLE,
  ]);
  await insertRow(sql, 'custom_fee', {
    entity_id: FUNGIBLE,
    fixed_fees: JSON.stringify([{ amount: 5, collector_account_id: Number(SPENDER) }]),
    fractional_fees: JSON.stringify([
      {
        numerator: 1,
        denominator: 20,
        minimum_amount: 2,
        maximum_amount: 9,
        net_of_transfers: true,
        collector_account_id: Number(SPENDER),
      },
    ]),
    timestamp_range: `[${GENESIS},)`,
  });
  await insertToken(sql, NFT, GENESIS, {
    name: 'Art',
    symbol: 'ART',
    decimals: 0,
    total_supply: 2,
    initial_supply: 0,
    type: 'NON_FUNGIBLE_UNIQUE',
    treasury_account_id: HOLDER,
  });
  await insertRow(sql, 'custom_fee', {
    entity_id: NFT,
    royalty_fees: JSON.stringify([
      {
        numerator: 1,
        denominator: 10,
        fallback_fee: { amount: 3, denominating_token_id: Number(FUNGIBLE) },
        collector_account_id: Number(HOLDER),
      },
    ]),
    timestamp_range: `[${GENESIS},)`,
  });
  await insertNft(sql, {
    token_id: NFT,
    serial_number: 1,
    created_timestamp: GENESIS + 5n * SECOND,
    account_id: HOLDER,
    spender: SPENDER,
    metadata: Buffer.from('ipfs://one'),
  });
  // Serial 2 moved from the holder to the aliased account after block 10; serial 3 was burned after it.
  await insertNft(sql, {
    token_id: NFT,
    serial_number: 2,
    created_timestamp: GENESIS + 6n * SECOND,
    account_id: ALIASED,
    timestamp_range: `[${SNAPSHOT + 50n * SECOND},)`,
  });
  await insertRow(sql, 'nft_history', {
    token_id: NFT,
    serial_number: 2,
    created_timestamp: GENESIS + 6n * SECOND,
    account_id: HOLDER,
    deleted: false,
    timestamp_range: `[${GENESIS + 6n * SECOND},${SNAPSHOT + 50n * SECOND})`,
  });
  await insertNft(sql, {
    token_id: NFT,
    serial_number: 3,
    created_timestamp: GENESIS + 7n * SECOND,
    account_id: null,
    deleted: true,
    timestamp_range: `[${SNAPSHOT + 60n * SECOND},)`,
  });
  await insertRow(sql, 'nft_history', {
    token_id: NFT,
    serial_number: 3,
    created_timestamp: GENESIS + 7n * SECOND,
    account_id: HOLDER,
    deleted: false,
    timestamp_range: `[${GENESIS + 7n * SECOND},${SNAPSHOT + 60n * SECOND})`,
  });
  await insertNftAllowance(sql, { owner: HOLDER, spender: SPENDER, token_id: NFT });
  await insertTokenAccount(sql, { account_id: HOLDER, token_id: FUNGIBLE, balance: 700 });
  await insertTokenAccount(sql, { account_id: ALIASED, token_id: FUNGIBLE, balance: 300, freeze_status: 1 });
  await insertTokenAccount(sql, { account_id: HOLDER, token_id: NFT, balance: 1 });
  await insertRow(sql, 'token_allowance', {
    owner: HOLDER,
    spender: SPENDER,
    token_id: FUNGIBLE,
    amount: 50,
    amount_granted: 60,
    payer_account_id: HOLDER,
    timestamp_range: `[${GENESIS},)`,
  });
  // The snapshot before block 10, then a transfer and a mint before it and a transfer and a burn after it.
  await insertAccountBalance(sql, { account_id: 2, balance: 5_000_000_000, consensus_timestamp: SNAPSHOT });
  await insertRow(sql, 'token_balance', {
    account_id: HOLDER,
    token_id: FUNGIBLE,
    balance: 1000,
    consensus_timestamp: SNAPSHOT,
  });
  const transfers: [bigint, bigint, number][] = [
    [SNAPSHOT + 5n * SECOND, HOLDER, -100],
    [SNAPSHOT + 5n * SECOND, ALIASED, 100],
    [SNAPSHOT + 6n * SECOND, HOLDER, 50],
    [SNAPSHOT + 50n * SECOND, HOLDER, -200],
    [SNAPSHOT + 50n * SECOND, ALIASED, 200],
    [SNAPSHOT + 60n * SECOND, HOLDER, -50],
  ];
  for (const [timestamp, account, amount] of transfers) {
    await insertRow(sql, 'token_transfer', {
      token_id: FUNGIBLE,
      account_id: account,
      amount,
      consensus_timestamp: timestamp,
      payer_account_id: HOLDER,
    });
  }
}

/** The redirect proxies of the ledger's two tokens. */
export const TOKEN_REDIRECTS: readonly Redirect[] = [
  { kind: 'TOKEN', address: longZeroAddress(FUNGIBLE) },
  { kind: 'TOKEN', address: longZeroAddress(NFT) },
];

/** An EVM with the system contracts reading `db` at `block` with the default settings, and the given proxies. */
export function systemEvmAt(
  db: Database,
  block: BlockContext,
  redirects: readonly Redirect[] = TOKEN_REDIRECTS,
): Promise<SystemEvm> {
  return systemEvm(new SessionLedger(db, block, TESTNET_SETTINGS), redirects);
}

/** The return data of a call that succeeded, to read with AbiArgs. */
export function returned(result: ExecResult): AbiArgs {
  expect(result.exceptionError).toBeUndefined();
  return new AbiArgs(result.returnValue);
}

/** The revert data of a call that reverted, as text (the consensus node reverts with a status name). */
export function revertText(result: ExecResult): string {
  expect(result.exceptionError?.error).toBe('revert');
  return new TextDecoder().decode(result.returnValue);
}
