import { describe, expect, it } from 'vitest';
import { messageField, oneofMember, readFields, repeatedVarintCount, varintField, WireError } from './wire.ts';

describe('the fee estimate wire reader', () => {
  it('takes the oneof member that comes last on the wire', () => {
    // field 2 (bytes "a"), then field 5 (empty message), then field 2 again
    const fields = readFields(Uint8Array.of(0x12, 0x01, 0x61, 0x2a, 0x00, 0x12, 0x00));
    expect(oneofMember(fields, [2, 5])?.number).toBe(2);
    expect(oneofMember(readFields(Uint8Array.of(0x12, 0x00, 0x2a, 0x00)), [2, 5])?.number).toBe(5);
  });

  it('merges repeated occurrences of a singular message field', () => {
    // field 1 twice: {1: 7} then {2: 9}
    const merged = messageField(readFields(Uint8Array.of(0x0a, 0x02, 0x08, 0x07, 0x0a, 0x02, 0x10, 0x09)), 1);
    expect(merged && [varintField(merged, 1), varintField(merged, 2)]).toEqual([7n, 9n]);
  });

  it('counts a repeated varint field packed or not', () => {
    expect(repeatedVarintCount(readFields(Uint8Array.of(0x12, 0x04, 0x01, 0x96, 0x01, 0x03)), 2)).toBe(3);
    expect(repeatedVarintCount(readFields(Uint8Array.of(0x10, 0x01, 0x10, 0x02)), 2)).toBe(2);
  });

  it.each([
    ['a truncated length-delimited field', [0x0a, 0x05, 0x01]],
    ['a truncated varint', [0x08, 0x80]],
    ['a group', [0x0b, 0x0c]],
    ['field number zero', [0x00, 0x01]],
    ['an eleven-byte varint', [0x08, ...new Array(10).fill(0xff), 0x01]],
  ])('refuses %s', (_name, bytes) => {
    expect(() => readFields(Uint8Array.from(bytes))).toThrow(WireError);
  });
});
