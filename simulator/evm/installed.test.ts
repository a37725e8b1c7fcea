import { describe, expect, it } from 'vitest';
import { Ledger } from '../ledger/ledger.ts';
import { delegationCode } from './evm.ts';
import { installedState } from './installed.ts';

const key = { kind: 'secp256k1' as const, publicKey: new Uint8Array(33) };
const delegate = new Uint8Array(20).fill(9);

function ledgerWith(...accounts: { num: bigint; delegated: boolean; storage: boolean }[]): Ledger {
  const ledger = new Ledger(1);
  for (const { num, delegated, storage } of accounts) {
    const account = ledger.createAccount(num, key, {
      memo: '',
      evmAddress: new Uint8Array(20).fill(Number(num % 256n)),
      maxAutoAssociations: 0,
    });
    if (delegated) account.delegation = delegate;
    if (storage) account.delegatedStorage = new Map([['', '05']]);
  }
  return ledger;
}

describe('installedState', () => {
  it('installs a delegating account with the delegation designation and its storage', () => {
    const [installed] = installedState(ledgerWith({ num: 1001n, delegated: true, storage: true }));
    expect(installed?.runtime).toEqual(delegationCode(delegate));
    expect([...(installed?.storage ?? [])]).toEqual([['', '05']]);
  });

  it('keeps the storage of an account whose delegation was cleared, with no code', () => {
    const [installed] = installedState(ledgerWith({ num: 1001n, delegated: false, storage: true }));
    expect(installed?.runtime).toHaveLength(0);
    expect([...(installed?.storage ?? [])]).toEqual([['', '05']]);
  });

  it('installs nothing for an account that never delegated', () => {
    expect(installedState(ledgerWith({ num: 1001n, delegated: false, storage: false }))).toEqual([]);
  });
});
