import { describe, expect, it } from 'vitest';
import { longZeroAddress } from '../ledger/ids.ts';
import { creationFee, readCreation } from './hts-create.ts';
import { htsCreateCallData } from './hts-functions.ts';

describe('createFungibleToken through 0x167', () => {
  it('reads back the token its call data encodes', () => {
    const token = {
      name: 'A name longer than one thirty-two byte word',
      symbol: 'ANL',
      memo: 'memo',
      treasury: longZeroAddress(1042n),
      autoRenewAccount: longZeroAddress(1043n),
      autoRenewPeriod: 7_776_000n,
      initialSupply: 123_456n,
      decimals: 6n,
    };
    const data = htsCreateCallData(token);
    // The HederaToken tuple is dynamic, so the head starts with its offset, past the three head words.
    expect(Buffer.from(data.subarray(4, 36)).toString('hex')).toBe((96).toString(16).padStart(64, '0'));
    expect(readCreation(data)).toEqual(token);
  });

  it('charges the TokenCreate price plus a fifth, less the fixed gas, in tinybars at the rate', () => {
    // $1 at 12 cents an hbar is 833,333,333 tinybars; 100,000 gas at 71 tinybars pays 7,100,000 of it.
    expect(creationFee({ hbarEquiv: 1, centEquiv: 12, expirationSeconds: 0n })).toBe(
      833_333_333n + 166_666_666n - 7_100_000n,
    );
    expect(creationFee({ hbarEquiv: 1, centEquiv: 6, expirationSeconds: 0n })).toBe(
      1_666_666_666n + 333_333_333n - 14_200_000n,
    );
  });
});
