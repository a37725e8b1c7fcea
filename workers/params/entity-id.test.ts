import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import {
  decodeEntityId,
  type EntityIdOptions,
  encodeEntityId,
  entityIdParam,
  formatEntityId,
  isEntityIdText,
  isEvmAddressText,
  longZeroEvmAddress,
  parseEntityId,
  requireEntityId,
} from './entity-id.ts';

const OPAQUE = '71eaa748d5252be68c1185588beca495459fdba4';
const NOT_LONG_ZERO = '0000000100000000000000020000000000000007';
const LONG_ZERO_25623323 = '000000000000000000000000000000000186Fb1b';

const num = (shard: bigint, realm: bigint, n: bigint) => ({
  kind: 'num',
  shard,
  realm,
  num: n,
  encoded: encodeEntityId({ shard, realm, num: n }),
});
const evm = (address: string, shard = 0n, realm = 0n) => ({ kind: 'evm-address', shard, realm, address });

describe('isEntityIdText', () => {
  it.each<[string, boolean, EntityIdOptions?]>([
    ['3', true],
    ['65535.000000001', true],
    ['1.2.3', true],
    ['9999.99999.999999999999', true],
    ['2814792716779530', true],
    ['9223372036854775807', true],
    ['-9223372036854775808', true],
    ['-1', true],
    [`0x${NOT_LONG_ZERO}`, true],
    [OPAQUE, true],
    [`0.0.${OPAQUE}`, true],
    [`1.2.${OPAQUE}`, true],
    ['', false],
    ['0.1.2.3', false],
    ['-1.0.1', false],
    ['0.-1.1', false],
    ['0.0.-1', false],
    ['100000.65535.000000001', false],
    ['100000.000000001', false],
    ['92233720368547758070', false],
    ['-92233720368547758080', false],
    ['0.0.1 ', false],
    ['1.5', true],
    ['0X0000000000000000000000000000000000000001', false],
    ['0x010203', false],
    [`0x${NOT_LONG_ZERO}`, false, { allowEvmAddress: false }],
    [OPAQUE, false, { allowEvmAddress: false }],
    [OPAQUE, false, { evmAddressType: 'num-alias' }],
    [`0x${LONG_ZERO_25623323}`, true, { evmAddressType: 'num-alias' }],
    [`0.0.${OPAQUE}`, false, { evmAddressType: 'no-shard-realm' }],
    [`0x${OPAQUE}`, false, { evmAddressType: 'optional-shard-realm' }],
  ])('%j -> %s %j', (text, expected, options) => {
    expect(isEntityIdText(text, options)).toBe(expected);
  });

  it('isEvmAddressText checks the address forms alone', () => {
    expect(isEvmAddressText(`0x${OPAQUE}`)).toBe(true);
    expect(isEvmAddressText('0.0.1')).toBe(false);
  });
});

describe('parseEntityId', () => {
  it.each<[string, object | undefined, EntityIdOptions?]>([
    ['0.0.0', num(0n, 0n, 0n)],
    ['0.0.274877906943', num(0n, 0n, 274877906943n)],
    ['1023.65535.274877906943', num(1023n, 65535n, 274877906943n)],
    ['0', num(0n, 0n, 0n)],
    ['10', num(0n, 0n, 10n)],
    ['0010', num(0n, 0n, 10n)],
    ['5.1', num(0n, 5n, 1n)],
    ['274877906943', num(0n, 0n, 274877906943n)],
    // a bare number is a num, never an encoded id
    ['274877906944', undefined],
    ['1377209665535', undefined],
    ['-1', undefined],
    ['1024.0.1', undefined],
    ['0.65536.1', undefined],
    ['0.0.274877906944', undefined],
    ['0x0000000000000000000000000000000000000001', num(0n, 0n, 1n)],
    [LONG_ZERO_25623323, num(0n, 0n, 25623323n)],
    [`0x${LONG_ZERO_25623323}`, num(0n, 0n, 25623323n)],
    [`0.0.${LONG_ZERO_25623323}`, num(0n, 0n, 25623323n)],
    [`0.${LONG_ZERO_25623323}`, num(0n, 0n, 25623323n)],
    [`1.1.${LONG_ZERO_25623323}`, undefined],
    [`1.${LONG_ZERO_25623323}`, undefined],
    ['0x000000000000000000000000000000400000000', undefined],
    [NOT_LONG_ZERO, evm(NOT_LONG_ZERO)],
    [`0x${NOT_LONG_ZERO}`, evm(NOT_LONG_ZERO)],
    [OPAQUE, evm(OPAQUE)],
    [`0x${OPAQUE.toUpperCase()}`, evm(OPAQUE.toUpperCase())],
    [`0.0.${OPAQUE}`, evm(OPAQUE)],
    [`1.1.${OPAQUE}`, undefined],
    // a long-zero address whose num needs more than 38 bits is opaque
    ['0x0000000000000000000000000000004000000000', evm('0000000000000000000000000000004000000000')],
    ['0x', undefined],
    // `0x` is stripped before the form is checked (callers that validate first see `isEntityIdText` refuse it)
    ['0x010203', num(0n, 0n, 10203n)],
    ['0x00000001000000000000000200000000000000034', undefined],
    ['a', undefined],
    ['0.1.2.3', undefined],
    ['a.b.c', undefined],
    ['-1.-1.-1', undefined],
    ['32768.65536.4294967296', undefined],
    ['', undefined],
    [' 0.0.1', undefined],
    ['0.0.1\n', undefined],
    [`0x${OPAQUE}`, undefined, { allowEvmAddress: false }],
    [OPAQUE, undefined, { evmAddressType: 'num-alias' }],
    [`0x${LONG_ZERO_25623323}`, num(0n, 0n, 25623323n), { evmAddressType: 'num-alias' }],
    // the reference fills in shard and realm before checking the form, so a 0x long-zero address fails here
    [`0x${LONG_ZERO_25623323}`, undefined, { evmAddressType: 'no-shard-realm' }],
    ['5', num(1n, 2n, 5n), { shard: 1n, realm: 2n }],
    ['3.5', num(1n, 3n, 5n), { shard: 1, realm: 2 }],
    [`0x${LONG_ZERO_25623323}`, num(1n, 2n, 25623323n), { shard: 1n, realm: 2n }],
    [`0.0.${LONG_ZERO_25623323}`, undefined, { shard: 1n, realm: 2n }],
    [`1.2.${OPAQUE}`, evm(OPAQUE, 1n, 2n), { shard: 1n, realm: 2n }],
  ])('%j', (text, expected, options) => {
    expect(parseEntityId(text, options)).toEqual(expected);
  });
});

describe('requireEntityId', () => {
  const messageOf = (text: string, options?: EntityIdOptions) => {
    try {
      requireEntityId(text, options);
    } catch (error) {
      if (error instanceof ApiError) return `${error.status} ${error.messages.map((m) => m.message).join(' | ')}`;
      throw error;
    }
    return undefined;
  };

  it.each<[string, string, EntityIdOptions?]>([
    ['274877906944', '400 Invalid entity ID "0.0.274877906944"'],
    ['-1', '400 Invalid entity ID "0.0.-1"'],
    ['5.x', '400 Invalid entity ID "0.5.x"'],
    ['0.1.2.3', '400 Invalid entity ID "0.0.1.2.3"'],
    [`1.1.${OPAQUE}`, `400 Invalid entity ID "1.1.${OPAQUE}"`],
    [`0x${OPAQUE}`, `400 Invalid entity ID "${OPAQUE}"`, { allowEvmAddress: false }],
    ['abc', '400 Invalid parameter: tokenid', { paramName: 'tokenid' }],
    ['1.2.3.4', '400 Invalid parameter: scheduleid', { paramName: 'scheduleid', allowEvmAddress: false }],
  ])('%j fails with %j', (text, expected, options) => {
    expect(messageOf(text, options)).toBe(expected);
  });

  it('returns what parseEntityId returns', () => {
    expect(requireEntityId('0.0.2')).toEqual(num(0n, 0n, 2n));
  });
});

describe('entityIdParam', () => {
  it('refuses bad syntax with undefined (Invalid parameter) and bad ranges with an ApiError', () => {
    const param = entityIdParam();
    expect(param('0.0.1001', 'eq')).toEqual(num(0n, 0n, 1001n));
    expect(param('x', 'eq')).toBeUndefined();
    expect(() => param('274877906944', 'gt')).toThrowError('Invalid entity ID "0.0.274877906944"');
    expect(() => entityIdParam({ paramName: 'from' })('274877906944', 'eq')).toThrowError('Invalid parameter: from');
    expect(entityIdParam({ evmAddressType: 'num-alias' })(OPAQUE, 'eq')).toBeUndefined();
  });
});

describe('encodeEntityId / decodeEntityId', () => {
  it.each<[bigint, bigint, bigint, bigint]>([
    [0n, 0n, 0n, 0n],
    [0n, 0n, 10n, 10n],
    [0n, 5n, 2820130815n, 1377209665535n],
    [10n, 10n, 10n, 180146733873889290n],
    [0n, 0n, 274877906943n, 274877906943n],
    [511n, 65535n, 274877906943n, 9223372036854775807n],
    [512n, 0n, 0n, -9223372036854775808n],
    [1023n, 65535n, 274877906943n, -1n],
  ])('%s.%s.%s <-> %s', (shard, realm, n, encoded) => {
    expect(encodeEntityId({ shard, realm, num: n })).toBe(encoded);
    expect(decodeEntityId(encoded)).toEqual({ shard, realm, num: n });
  });

  it('refuses encodings outside the signed 64-bit range', () => {
    expect(decodeEntityId(2n ** 63n)).toBeUndefined();
    expect(decodeEntityId(-(2n ** 63n) - 1n)).toBeUndefined();
  });
});

describe('formatEntityId', () => {
  it.each<[bigint | number | null | undefined, string | null]>([
    [10n, '0.0.10'],
    [1001, '0.0.1001'],
    [180146733873889290n, '10.10.10'],
    [-1n, '1023.65535.274877906943'],
    [null, null],
    [undefined, null],
    // like the reference, any id whose num is 0 is written as null
    [0n, null],
    [2n ** 38n, null],
  ])('%s -> %s', (encoded, expected) => {
    expect(formatEntityId(encoded)).toBe(expected);
  });

  it('throws on an encoding no database column can hold', () => {
    expect(() => formatEntityId(2n ** 63n)).toThrow(RangeError);
  });
});

describe('longZeroEvmAddress', () => {
  it('pads the num to 20 bytes', () => {
    expect(longZeroEvmAddress(1001n)).toBe('0x00000000000000000000000000000000000003e9');
    expect(longZeroEvmAddress(274877906943n)).toBe('0x0000000000000000000000000000003fffffffff');
  });
});
