import { describe, expect, it } from 'vitest';
import { GENESIS, SECOND, useEvmLedger } from '../../test/harness/evm-session.ts';
import { insertRow } from '../../test/harness/factories.ts';
import { insertContractResult } from '../../test/harness/factories-contracts.ts';
import { tokenAllowanceAt } from './evm-system-tokens.ts';

const OWNER = 1001n;
const SPENDER = 1002n;
const RELAYER = 1003n;
const TOKEN = 1010n;
const CONTRACT = 1020n;
const at = (seconds: bigint) => GENESIS + seconds * SECOND;

/** A debit of the owner's token at `seconds`, paid by `payer`. */
const debit = (seconds: bigint, amount: number, payer: bigint, isApproval: boolean) => ({
  token_id: TOKEN,
  account_id: OWNER,
  consensus_timestamp: at(seconds),
  amount,
  payer_account_id: payer,
  is_approval: isApproval,
});

const ledger = useEvmLedger(async (sql) => {
  const grant = { owner: OWNER, spender: SPENDER, token_id: TOKEN, payer_account_id: OWNER };
  // A grant of 500 replaced at 10 s by one of 100, of which 45 were spent by 30 s (in place: 55 left).
  await insertRow(sql, 'token_allowance_history', {
    ...grant,
    amount_granted: 500,
    amount: 460,
    timestamp_range: `[${at(0n)},${at(10n)})`,
  });
  await insertRow(sql, 'token_allowance', {
    ...grant,
    amount_granted: 100,
    amount: 55,
    timestamp_range: `[${at(10n)},)`,
  });
  for (const row of [
    debit(5n, -40, SPENDER, true),
    debit(20n, -30, SPENDER, true),
    // Not the spender's: another payer's approved debit, and the spender's own unapproved one.
    debit(25n, -7, RELAYER, true),
    debit(26n, -9, SPENDER, false),
    // Relayed by another payer, in a contract call the spender sent: the spender's.
    debit(30n, -15, RELAYER, true),
  ]) {
    await insertRow(sql, 'token_transfer', row);
  }
  await insertContractResult(sql, {
    consensus_timestamp: at(30n),
    contract_id: CONTRACT,
    payer_account_id: RELAYER,
    sender_id: SPENDER,
  });
});

describe('tokenAllowanceAt', () => {
  const allowanceAt = (timestamp: bigint | undefined) =>
    tokenAllowanceAt(ledger.db, { owner: OWNER, spender: SPENDER, tokenId: TOKEN }, timestamp);

  it('answers the remaining amount at latest', async () => {
    expect(await allowanceAt(undefined)).toBe(55n);
  });

  it('answers at a past block the amount granted then less the approved debits the spender made by that block', async () => {
    const answers = await Promise.all([6n, 15n, 20n, 29n, 30n].map((seconds) => allowanceAt(at(seconds))));
    expect(answers).toEqual([460n, 100n, 70n, 70n, 55n]);
  });

  it('answers 0 before the first grant', async () => {
    expect(await allowanceAt(GENESIS - 1n)).toBe(0n);
  });
});
