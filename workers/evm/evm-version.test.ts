import { Hardfork } from '@ethereumjs/common';
import { describe, expect, it } from 'vitest';
import { TESTNET_SETTINGS } from '../../test/harness/evm-session.ts';
import { evmVersionAt, hardforkOf } from './evm-version.ts';
import type { BlockContext } from './types.ts';

const block = (number: bigint, historical = true): BlockContext => ({
  number,
  consensusStart: 0n,
  consensusEnd: 0n,
  hash: '',
  historical,
});
const mainnet = { ...TESTNET_SETTINGS, network: 'MAINNET' as const, chainId: 295n };

describe('the EVM version of a block', () => {
  it.each([
    [0n, 30],
    [44_029_065n, 30],
    [44_029_066n, 34],
    [49_117_794n, 38],
    [60_258_042n, 46],
    [65_435_844n, 46],
    [65_435_845n, 50],
    [66_602_102n, 51],
    [85_011_472n, 65],
    [85_659_065n, 66],
    [87_129_575n, 67],
    [200_000_000n, 67],
  ])('on mainnet, block %s runs v0.%s', (number, version) => {
    expect(evmVersionAt(block(number), mainnet)).toBe(version);
  });

  it('is the newest for a latest call and on the other networks', () => {
    expect(evmVersionAt(block(0n, false), mainnet)).toBe(67);
    expect(evmVersionAt(block(0n), TESTNET_SETTINGS)).toBe(67);
  });

  it('maps v0.50 on to Cancun, v0.46 to Shanghai and older versions to London', () => {
    expect([67, 50, 46, 38, 30].map(hardforkOf)).toEqual([
      Hardfork.Cancun,
      Hardfork.Cancun,
      Hardfork.Shanghai,
      Hardfork.London,
      Hardfork.London,
    ]);
  });
});
