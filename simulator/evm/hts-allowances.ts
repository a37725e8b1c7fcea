/**
 * Units a contract moves out of an account it cannot act for (hts-authority.ts): the node turns such a debit into an
 * approved one (ClassicTransfersCall), so it spends the allowance the account gave the contract, as CryptoTransfer's
 * token step checks it: SPENDER_DOES_NOT_HAVE_ALLOWANCE without one, AMOUNT_EXCEEDS_ALLOWANCE beyond it. A spent
 * allowance is deleted (and leaves the pool of allowance keys) when it reaches zero.
 */
import type { Ledger } from '../ledger/ledger.ts';
import { actsFor, SPENDER_DOES_NOT_HAVE_ALLOWANCE } from './hts-authority.ts';
import type { Undo } from './hts-dispatch.ts';

const AMOUNT_EXCEEDS_ALLOWANCE = 293;

export interface UnitDebit {
  readonly token: bigint;
  readonly account: bigint;
  readonly amount: bigint;
}

export interface AllowanceSpends {
  /** The code that stops the transfer, or undefined. */
  readonly status: number | undefined;
  /** Allowance key (`owner/spender/token`) → units spent. */
  readonly spends: ReadonlyMap<string, bigint>;
  /** Whether `account`'s debit of `token` is an approved one. */
  approved(token: bigint, account: bigint): boolean;
  /** Spends the allowances; answers the undo. */
  spend(): Undo;
}

/** The allowances `caller` spends for the debits (negative amounts) among `adjustments`. */
export function allowanceSpends(ledger: Ledger, caller: bigint, adjustments: readonly UnitDebit[]): AllowanceSpends {
  const spends = new Map<string, bigint>();
  for (const { token, account, amount } of adjustments) {
    if (amount >= 0n || actsFor(ledger, account, caller)) continue;
    const key = `${account}/${caller}/${token}`;
    spends.set(key, (spends.get(key) ?? 0n) - amount);
  }
  let status: number | undefined;
  for (const [key, amount] of spends) {
    const allowance = ledger.tokenAllowances.get(key);
    status ??=
      allowance === undefined
        ? SPENDER_DOES_NOT_HAVE_ALLOWANCE
        : allowance < amount
          ? AMOUNT_EXCEEDS_ALLOWANCE
          : undefined;
  }
  return {
    status,
    spends,
    approved: (token, account) => spends.has(`${account}/${caller}/${token}`),
    spend: () => {
      const before = [...spends.keys()].map((key) => ({
        key,
        allowance: ledger.tokenAllowances.get(key),
        pooled: ledger.allowanceKeys.has(`t:${key}`),
      }));
      for (const [key, amount] of spends) {
        const left = (ledger.tokenAllowances.get(key) ?? 0n) - amount;
        if (left > 0n) ledger.tokenAllowances.set(key, left);
        else {
          ledger.tokenAllowances.delete(key);
          ledger.allowanceKeys.delete(`t:${key}`);
        }
      }
      return () => {
        for (const { key, allowance, pooled } of before) {
          if (allowance !== undefined) ledger.tokenAllowances.set(key, allowance);
          if (pooled) ledger.allowanceKeys.add(`t:${key}`);
        }
      };
    },
  };
}
