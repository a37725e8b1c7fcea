import { describe, expect, it } from 'vitest';
import { hexOfBytes } from '../../../db/bytea.ts';
import { AbiArgs, AbiDecodeError, address, array, bool, bytes, encode, int, selectorOf, string, tuple } from './abi.ts';
import { parseRedirect } from './redirect-input.ts';

const hex = (value: Uint8Array) => hexOfBytes(value);

describe('selectorOf', () => {
  it.each([
    ['balanceOf(address)', '70a08231'],
    ['getTokenInfo(address)', '1f69565f'],
    ['getNonFungibleTokenInfo(address,int64)', '287e1da8'],
    ['getTokenKey(address,uint256)', '3c4dd32e'],
    ['tinycentsToTinybars(uint256)', '2e3cff6a'],
    ['getPseudorandomSeed()', 'd83bf9a1'],
    ['isAuthorizedRaw(address,bytes,bytes)', 'b2a31da4'],
    ['redirectForToken(address,bytes)', '618dc65e'],
  ])('gives %s the selector %s', (signature, expected) => {
    expect(selectorOf(signature).toString(16).padStart(8, '0')).toBe(expected);
  });
});

describe('encode', () => {
  it('puts a dynamic value after the heads, at the offset its head gives', () => {
    const encoded = encode(int(22n), string('Gold'));
    expect(hex(encoded)).toBe(
      `${'0'.repeat(62)}16${'0'.repeat(62)}40${'0'.repeat(63)}4${Buffer.from('Gold').toString('hex')}${'0'.repeat(56)}`,
    );
  });

  it('writes a negative integer in two’s complement and a static tuple inline', () => {
    const encoded = encode(tuple(int(-1n), bool(true)));
    expect(hex(encoded)).toBe(`${'f'.repeat(64)}${'0'.repeat(63)}1`);
  });

  it('encodes an array of dynamic tuples as a length, the elements’ offsets and the elements', () => {
    const encoded = encode(array([tuple(bytes(new Uint8Array([1]))), tuple(bytes(new Uint8Array([2, 3])))]));
    const args = new AbiArgs(encoded).array(0);
    expect(args.length).toBe(2);
    expect(args.items.tuple(0).bytes(0)).toEqual(new Uint8Array([1]));
    expect(args.items.tuple(1).bytes(0)).toEqual(new Uint8Array([2, 3]));
  });
});

describe('AbiArgs', () => {
  it('rejects an address argument with dirty upper bytes and a read past the end', () => {
    const dirty = new Uint8Array(32).fill(1);
    expect(() => new AbiArgs(dirty).address(0)).toThrow(AbiDecodeError);
    expect(() => new AbiArgs(new Uint8Array(31)).uint(0)).toThrow(AbiDecodeError);
  });

  it('rejects an int64 argument that does not fit 64 bits', () => {
    expect(() => new AbiArgs(encode(int(1n << 64n))).int(0, 64)).toThrow(AbiDecodeError);
    expect(new AbiArgs(encode(int(-5n))).int(0, 64)).toBe(-5n);
  });
});

describe('parseRedirect', () => {
  const target = new Uint8Array(20).fill(7);
  const inner = new Uint8Array([0x70, 0xa0, 0x82, 0x31, 9, 9]);

  it('reads the packed form the proxy sends', () => {
    const input = new Uint8Array([0x61, 0x8d, 0xc6, 0x5e, ...target, ...inner]);
    expect(parseRedirect(input)).toEqual({ target, data: inner });
  });

  it('reads the ABI form a contract calling redirectForToken itself sends', () => {
    const input = new Uint8Array([0x61, 0x8d, 0xc6, 0x5e, ...encode(address(target), bytes(inner))]);
    expect(parseRedirect(input)).toEqual({ target, data: inner });
  });
});
