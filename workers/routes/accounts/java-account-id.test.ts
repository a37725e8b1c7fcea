import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { parseJavaAccountId } from './java-account-id.ts';

const NETWORK = { shard: 0, realm: 0 };
const ALIAS = 'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ';

describe("the Java process's account path segment", () => {
  it.each([
    ['1001', 1001n],
    ['0.1001', 1001n],
    ['2.1001', (2n << 38n) | 1001n],
    ['1.2.3', (1n << 54n) | (2n << 38n) | 3n],
  ])('reads %s as an entity id', (text, id) => {
    expect(parseJavaAccountId(text, NETWORK)).toEqual({ kind: 'id', id });
  });

  it('reads EVM addresses (with any prefix) and aliases, whose leftover bits it ignores', () => {
    expect(parseJavaAccountId(`0x${'ab'.repeat(20)}`, NETWORK).kind).toBe('evm-address');
    expect(parseJavaAccountId(`1.2.${'ab'.repeat(20)}`, NETWORK).kind).toBe('evm-address');
    expect(parseJavaAccountId(`0.0.${ALIAS}`, NETWORK)).toMatchObject({ kind: 'alias' });
    expect(parseJavaAccountId(`${ALIAS.slice(0, -1)}Z`, NETWORK)).toMatchObject({ kind: 'alias' });
  });

  it.each([['abc'], ['0.0.274877906944'], ['1024.0.1'], [ALIAS.slice(0, 41)], ['-1']])(
    "fails to convert '%s'",
    (text) => {
      expect(() => parseJavaAccountId(text, NETWORK)).toThrow(ApiError);
    },
  );
});
