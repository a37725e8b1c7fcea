/** The accounts a network starts with hold the local node's genesis key; accounts clients create do not. */
import { describe, expect, it } from 'vitest';
import { Ledger } from '../ledger/ledger.ts';
import { genesisKey, keyGenesisAccounts } from './genesis.ts';

describe('keyGenesisAccounts', () => {
  it('gives 0.0.2, the node accounts and the fee and reward accounts the genesis key', () => {
    const ledger = new Ledger(4);
    keyGenesisAccounts(ledger);

    for (const num of [2n, 3n, 4n, 5n, 6n, 98n, 800n, 801n]) expect(ledger.account(num).key).toEqual(genesisKey());
  });
});
