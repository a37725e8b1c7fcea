import { describe, expect, it } from 'vitest';
import { longZeroAddress } from '../ledger/ids.ts';
import { creationFee, readCreation, SUPPLY_KEY_TYPE } from './hts-create.ts';
import { htsCreateCallData } from './hts-functions.ts';

describe('createFungibleToken through 0x167', () => {
  it('reads back the token its call data encodes', () => {
    const token = {
      type: 'FUNGIBLE_COMMON' as const,
      name: 'A name longer than one thirty-two byte word',
      symbol: 'ANL',
      memo: 'memo',
      treasury: longZeroAddress(1042n),
      autoRenewAccount: longZeroAddress(1043n),
      autoRenewPeriod: 7_776_000n,
      keys: [],
      initialSupply: 123_456n,
      decimals: 6n,
    };
    const data = htsCreateCallData(token);
    // The HederaToken tuple is dynamic, so the head starts with its offset, past the three head words.
    expect(Buffer.from(data.subarray(4, 36)).toString('hex')).toBe((96).toString(16).padStart(64, '0'));
    expect(readCreation(data, 'FUNGIBLE_COMMON')).toEqual(token);
  });

  it('reads back an NFT collection with contract keys, under the createNonFungibleToken selector', () => {
    const token = {
      type: 'NON_FUNGIBLE_UNIQUE' as const,
      name: 'Collection',
      symbol: 'NCOL',
      memo: '',
      treasury: longZeroAddress(1042n),
      autoRenewAccount: longZeroAddress(1042n),
      autoRenewPeriod: 7_776_000n,
      keys: [
        { keyType: SUPPLY_KEY_TYPE, contract: longZeroAddress(1042n) },
        { keyType: 1n | 64n, contract: longZeroAddress(1043n) },
      ],
      initialSupply: 0n,
      decimals: 0n,
    };
    const data = htsCreateCallData(token);
    // keccak256('createNonFungibleToken((string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(int64,address,int64)))')
    expect(Buffer.from(data.subarray(0, 4)).toString('hex')).toBe('ea83f293');
    // The tuple's offset is the only head word.
    expect(Buffer.from(data.subarray(4, 36)).toString('hex')).toBe((32).toString(16).padStart(64, '0'));
    expect(readCreation(data, 'NON_FUNGIBLE_UNIQUE')).toEqual(token);
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
