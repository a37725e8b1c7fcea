import { describe, expect, it } from 'vitest';
import { weibarAmount, weibarToTinybar } from './weibar.ts';

const TEN_HBAR_WEIBAR = new Uint8Array([0x8a, 0xc7, 0x23, 0x04, 0x89, 0xe8, 0x00, 0x00]);

describe('weibarAmount', () => {
  it('reads stored bytes as an unsigned integer', () => {
    expect(weibarAmount(TEN_HBAR_WEIBAR)).toBe(10n ** 19n);
    expect(weibarAmount(new Uint8Array([0]))).toBe(0n);
  });

  it('answers 0 for null or empty bytes, which the importer never writes, instead of failing', () => {
    expect(weibarAmount(null)).toBe(0n);
    expect(weibarAmount(new Uint8Array())).toBe(0n);
  });
});

describe('weibarToTinybar', () => {
  it('reads a value whose top bit is set as negative only when signed', () => {
    expect(weibarToTinybar(TEN_HBAR_WEIBAR, false)).toBe(1_000_000_000n);
    expect(weibarToTinybar(TEN_HBAR_WEIBAR, true)).toBe((10n ** 19n - 2n ** 64n) / 10_000_000_000n);
    expect(weibarToTinybar(new Uint8Array(), true)).toBeNull();
  });
});
