import { Account, Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { JournaledStateManager } from './journaled-state.ts';

const A = new Address(new Uint8Array(20).fill(0xaa));
const B = new Address(new Uint8Array(20).fill(0xbb));
const slot = (n: number) => new Uint8Array(32).fill(n);
const value = (n: number) => Uint8Array.of(n);

describe('JournaledStateManager', () => {
  it('undoes exactly what a reverted frame wrote, and keeps what a committed one wrote', async () => {
    const state = new JournaledStateManager();
    await state.putAccount(A, new Account(0n, 100n));
    await state.putStorage(A, slot(1), value(1));
    await state.checkpoint();
    await state.putStorage(A, slot(1), value(2));
    await state.putStorage(A, slot(2), value(3));
    await state.putCode(B, Uint8Array.of(0x60, 0x00));
    await state.checkpoint();
    await state.modifyAccountFields(A, { balance: 50n });
    await state.commit();
    expect((await state.getAccount(A))?.balance).toBe(50n);
    await state.revert();
    expect((await state.getAccount(A))?.balance).toBe(100n);
    expect(await state.getStorage(A, slot(1))).toEqual(value(1));
    expect(await state.getStorage(A, slot(2))).toEqual(new Uint8Array());
    expect(await state.getCode(B)).toEqual(new Uint8Array());
    expect(await state.getAccount(B)).toBeUndefined();
  });

  it('restores cleared storage and deleted accounts on revert', async () => {
    const state = new JournaledStateManager();
    await state.putAccount(A, new Account(1n));
    await state.putStorage(A, slot(1), value(7));
    await state.checkpoint();
    await state.clearStorage(A);
    await state.deleteAccount(A);
    expect(await state.getStorage(A, slot(1))).toEqual(new Uint8Array());
    expect(await state.getAccount(A)).toBeUndefined();
    await state.revert();
    expect(await state.getStorage(A, slot(1))).toEqual(value(7));
    expect((await state.getAccount(A))?.nonce).toBe(1n);
  });

  it('keeps an account as it was put, whatever the caller does to its object afterwards', async () => {
    const state = new JournaledStateManager();
    const account = new Account(0n, 10n);
    await state.putAccount(A, account);
    await state.checkpoint();
    account.balance = 99n;
    const read = await state.getAccount(A);
    if (!read) throw new Error('no account');
    read.balance = 20n;
    expect((await state.getAccount(A))?.balance).toBe(10n);
    await state.putAccount(A, read);
    read.balance = 30n;
    await state.revert();
    expect((await state.getAccount(A))?.balance).toBe(10n);
  });
});
