import { describe, expect, it } from 'vitest';
import { BlockSpecError, parseBlockSpec } from './block-spec.ts';

describe('parseBlockSpec', () => {
  it.each([
    [undefined, { kind: 'latest' }],
    ['', { kind: 'latest' }],
    ['LATEST', { kind: 'latest' }],
    ['pending', { kind: 'latest' }],
    ['safe', { kind: 'latest' }],
    ['finalized', { kind: 'latest' }],
    ['earliest', { kind: 'earliest' }],
    ['0', { kind: 'number', number: 0n }],
    ['0x2540BE3FF', { kind: 'number', number: 9_999_999_999n }],
    [`0x${'EF'.repeat(48)}`, { kind: 'hash', hash: 'ef'.repeat(48) }],
    [`0x${'ab'.repeat(32)}`, { kind: 'hash', hash: 'ab'.repeat(32) }],
  ])('reads %s', (value, expected) => {
    expect(parseBlockSpec(value)).toEqual(expected);
  });

  it.each([
    ['-1', 'Invalid block value: -1'],
    ['ab'.repeat(32), `Invalid block value: ${'ab'.repeat(32)}`],
    ['0x', 'Invalid block value: 0x'],
    ['9223372036854775808', 'Decimal value out of range for block: 9223372036854775808'],
    ['0x8000000000000000', 'Hex value out of range for block: 0x8000000000000000'],
  ])('rejects %s', (value, message) => {
    expect(() => parseBlockSpec(value)).toThrow(new BlockSpecError(message));
  });
});
