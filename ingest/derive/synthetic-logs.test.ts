import { describe, expect, it } from 'vitest';
import { pairTransfers } from './synthetic-logs.ts';

describe('pairing a multi-party token transfer', () => {
  it('pairs senders and receivers by amount, largest first', () => {
    // A −70, B −30, C +50, D +50 → (A→C 50), (A→D 20), (B→D 30)
    expect(
      pairTransfers([
        { account: 1n, amount: -70n },
        { account: 2n, amount: -30n },
        { account: 3n, amount: 50n },
        { account: 4n, amount: 50n },
      ]),
    ).toEqual([
      { sender: 1n, receiver: 3n, amount: 50n },
      { sender: 1n, receiver: 4n, amount: 20n },
      { sender: 2n, receiver: 4n, amount: 30n },
    ]);
  });

  it('breaks ties by account number', () => {
    expect(
      pairTransfers([
        { account: 9n, amount: 10n },
        { account: 5n, amount: 10n },
        { account: 7n, amount: -20n },
      ]),
    ).toEqual([
      { sender: 7n, receiver: 5n, amount: 10n },
      { sender: 7n, receiver: 9n, amount: 10n },
    ]);
  });
});
