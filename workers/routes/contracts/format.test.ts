import { describe, expect, it } from 'vitest';
import { dataHex, quantityHex, uint256Hex } from './hex.ts';
import { indexParam, resolveHbar, topicParam } from './params.ts';
import { senderAliasAddress } from './sender-alias.ts';
import { weibarToTinybar, weibarToTinybarHex } from './weibar.ts';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

describe('contract hex formats', () => {
  it('drops one leading zero digit from quantities', () => {
    expect(quantityHex(bytes('012a'))).toBe('0x12a');
    expect(quantityHex(bytes('0012'))).toBe('0x012');
    expect(quantityHex(bytes('00'))).toBe('0x0');
    expect(quantityHex(null)).toBe('0x');
  });

  it('pads words and keeps null and empty apart', () => {
    expect(uint256Hex(bytes('05'))).toBe(`0x${'0'.repeat(63)}5`);
    expect(uint256Hex(new Uint8Array())).toBe(`0x${'0'.repeat(64)}`);
    expect(uint256Hex(null)).toBeNull();
    expect(dataHex(null)).toBe('0x');
  });
});

describe('weibar', () => {
  it('converts an Ethereum value (two complement) and gas prices (unsigned) to tinybar', () => {
    expect(weibarToTinybar(bytes('0001a055690d9db80000'), true)).toBe(3_000_000_000n);
    expect(weibarToTinybar(bytes('ff'), true)).toBe(0n);
    // -10^10 weibar in ten bytes of two's complement
    expect(weibarToTinybar(bytes('fffffffffffdabf41c00'), true)).toBe(-1n);
    expect(weibarToTinybar(null, true)).toBeNull();
    expect(weibarToTinybarHex(bytes('ad78ebc5ac620000'))).toBe('0x4a817c80');
    expect(weibarToTinybarHex(new Uint8Array())).toBe('0x');
  });
});

describe('contract query values', () => {
  it('reads topics without leading zeros, in whole bytes', () => {
    expect(topicParam('0x000A', 'eq')).toBe('0A');
    expect(topicParam('0x00', 'eq')).toBe('');
    expect(topicParam('A', 'gt')).toBeUndefined();
    expect(topicParam('0x'.padEnd(67, '1'), 'eq')).toBeUndefined();
  });

  it('reads an index as JavaScript reads a number', () => {
    expect(indexParam('2', 'eq')).toBe(2);
    expect(indexParam('-1', 'eq')).toBeUndefined();
    expect(indexParam('a', 'eq')).toBeUndefined();
  });

  it('reads hbar as the reference does after validation', () => {
    expect(resolveHbar('', 8)).toBe(true);
    expect(resolveHbar('?hbar=FALSE', 8)).toBe(false);
    expect(() => resolveHbar('?hbar=true&hbar=false', 8)).toThrow(
      "Invalid hbar parameter value: true,false. Must be 'true' or 'false'",
    );
  });
});

describe('sender alias', () => {
  it('reads the alias of ContractFunctionResult.sender_id', () => {
    // field 13 (sender_id) holding AccountID { alias (4): 0xabcd }
    expect(senderAliasAddress(bytes('6a042202abcd'))).toBe('0xabcd');
    // accountNum instead of alias
    expect(senderAliasAddress(bytes('6a021805'))).toBeNull();
    expect(senderAliasAddress(bytes('ff'))).toBeNull();
  });
});
