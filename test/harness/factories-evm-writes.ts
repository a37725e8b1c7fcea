/**
 * The ledger of the HTS write tests: the token ledger of the system contract tests, plus a contract (running
 * TWO_CALLS) that holds Gold and is the treasury of two tokens whose supply, pause, wipe and admin keys name it, a
 * receiver associated with Gold (holding 10) and Art, an account with unlimited automatic associations, and one with
 * no association and no automatic association slot.
 */
import type pg from 'pg';
import { expect } from 'vitest';
import type { Database } from '../../db/client.ts';
import { responseCodeName } from '../../db/codes/response-codes.ts';
import { longZeroAddress } from '../../workers/evm/addresses.ts';
import { AbiArgs } from '../../workers/evm/system/abi.ts';
import { calldata } from '../../workers/evm/system/testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from '../../workers/evm/system/testing/two-calls.ts';
import { GENESIS } from './evm-session.ts';
import { insertNftAllowance } from './factories-accounts.ts';
import {
  FUNGIBLE,
  HOLDER,
  latest,
  NFT,
  SPENDER,
  seedTokenLedger,
  systemEvmAt,
  TOKEN_REDIRECTS,
} from './factories-evm-system.ts';
import { insertEntity, insertToken, insertTokenAccount } from './factories-tokens.ts';

export const CONTRACT = 1700n;
export const RECEIVER = 1800n;
/** An account with unlimited automatic associations and none made. */
export const AUTO = 1801n;
/** An account associated with no token and with no automatic association slot. */
export const UNASSOCIATED = 1802n;
export const MINTED = 1900n;
export const MINTED_NFT = 1950n;
/** Key { contractID { contractNum: 1700 } }. */
export const CONTRACT_KEY = Buffer.from('0a0318a40d', 'hex');
export const HTS = longZeroAddress(0x167n);

export async function seedWritesLedger(sql: pg.Client): Promise<void> {
  await seedTokenLedger(sql);
  // Hbar and Gold enough for the custom fees their transfers pay: Gold's fixed 5 ℏ, Art's royalty fallback of 3 Gold.
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT', key: CONTRACT_KEY, balance: 1000n });
  await insertEntity(sql, RECEIVER, GENESIS, { balance: 1000n });
  await insertEntity(sql, AUTO, GENESIS, { max_automatic_token_associations: -1 });
  await insertEntity(sql, UNASSOCIATED, GENESIS, { balance: 1000n, max_automatic_token_associations: 0 });
  await insertTokenAccount(sql, { account_id: CONTRACT, token_id: FUNGIBLE, balance: 100, freeze_status: 2 });
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: FUNGIBLE, balance: 10, freeze_status: 2 });
  // The collector of Gold's fractional fee holds Gold, as the node requires of a fractional fee's collector.
  await insertTokenAccount(sql, { account_id: SPENDER, token_id: FUNGIBLE, balance: 0, freeze_status: 2 });
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: NFT, balance: 0 });
  await insertNftAllowance(sql, { owner: HOLDER, spender: CONTRACT, token_id: NFT });
  for (const [id, type] of [
    [MINTED, 'FUNGIBLE_COMMON'],
    [MINTED_NFT, 'NON_FUNGIBLE_UNIQUE'],
  ] as const) {
    await insertToken(sql, id, GENESIS, {
      name: 'Minted',
      symbol: 'MNT',
      type,
      decimals: 0,
      total_supply: type === 'FUNGIBLE_COMMON' ? 500 : 0,
      treasury_account_id: CONTRACT,
      supply_key: CONTRACT_KEY,
      pause_key: CONTRACT_KEY,
      wipe_key: CONTRACT_KEY,
    });
    await sql.query('update entity set key = $1 where id = $2', [CONTRACT_KEY, id]);
    await insertTokenAccount(sql, {
      account_id: CONTRACT,
      token_id: id,
      balance: type === 'FUNGIBLE_COMMON' ? 500 : 0,
    });
  }
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: MINTED, balance: 20 });
}

/** The system EVM at the latest block with the redirects of all four tokens and TWO_CALLS at the contract. */
export async function writesEvm(db: Database) {
  const system = await systemEvmAt(db, latest, [
    ...TOKEN_REDIRECTS,
    { kind: 'TOKEN', address: longZeroAddress(MINTED) },
    { kind: 'TOKEN', address: longZeroAddress(MINTED_NFT) },
  ]);
  await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
  /** Two calls made by the contract in one run; the answer of the second. */
  const both = (first: { to: Uint8Array; data: Uint8Array }, second: { to: Uint8Array; data: Uint8Array }) =>
    system.call(longZeroAddress(CONTRACT), twoCalls(first, second));
  return { ...system, both };
}

/** The redirect a token's proxy sends to 0x167, sent directly: its gas is the system contract's alone. */
export const redirect = (token: Uint8Array, data: Uint8Array): Uint8Array =>
  calldata('redirectForToken(address,bytes)', token, data);

/** The status a failed dispatch reverts with: its code's number in a 32-byte word. */
export function revertCode(result: { exceptionError?: { error: string }; returnValue: Uint8Array }): string {
  expect(result.exceptionError?.error).toBe('revert');
  expect(result.returnValue.length).toBe(32);
  return responseCodeName(Number(new AbiArgs(result.returnValue).uint(0)));
}
