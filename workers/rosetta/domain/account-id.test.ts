import { describe, expect, it } from 'vitest';
import { accountAddress, aliasKey, aliasOf, parseAccountAddress } from './account-id.ts';
import { entityOf } from './entity-id.ts';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const ED25519_KEY = 'ab'.repeat(32);
/** The secp256k1 generator, compressed: a valid point. */
const SECP256K1_KEY = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';

describe('Rosetta account identifiers', () => {
  it('reads shard.realm.num as Go parses each part, within what the encoding holds', () => {
    expect(parseAccountAddress('0.0.1001', 0n, 0n)).toEqual({ kind: 'id', id: entityOf(0n, 0n, 1001n) });
    expect(parseAccountAddress('+1.02.3', 0n, 0n)).toEqual({ kind: 'id', id: entityOf(1n, 2n, 3n) });
    for (const bad of ['0.0', '0.0.x', '0.0.-1', '1024.0.1', '0.65536.1', '0.0.274877906944', '0.0.1.2']) {
      expect(parseAccountAddress(bad, 0n, 0n), bad).toBeUndefined();
    }
  });

  it('reads 0x and a key alias, in the network shard and realm, and refuses any other alias', () => {
    expect(parseAccountAddress(`0x1220${ED25519_KEY}`, 1n, 2n)).toMatchObject({
      kind: 'alias',
      key: { curve: 'edwards25519' },
      shard: 1n,
      realm: 2n,
    });
    expect(parseAccountAddress(`0x3a21${SECP256K1_KEY}`, 0n, 0n)).toMatchObject({ key: { curve: 'secp256k1' } });
    for (const bad of [
      '0x',
      `1220${ED25519_KEY}`,
      `0x1220${ED25519_KEY}0`,
      `0x1221${ED25519_KEY}00`,
      `0x3a21${'00'.repeat(33)}`,
    ]) {
      expect(parseAccountAddress(bad, 0n, 0n), bad).toBeUndefined();
    }
    // a 20-byte EVM address alias is not a key
    expect(parseAccountAddress(`0x${'11'.repeat(20)}`, 0n, 0n)).toBeUndefined();
  });

  it('reads the alias as protobuf does: unknown fields skipped, the last key of the oneof wins', () => {
    expect(aliasKey(bytes(`08011220${ED25519_KEY}`))?.curve).toBe('edwards25519');
    expect(aliasKey(bytes(`1220${ED25519_KEY}0801`))?.curve).toBe('edwards25519');
    expect(aliasKey(bytes(`3a21${SECP256K1_KEY}1220${ED25519_KEY}`))?.curve).toBe('edwards25519');
    expect(aliasKey(bytes(`1220${ED25519_KEY}0a00`))).toBeUndefined();
  });

  it('names an account by its key alias when it has one, else by its id', () => {
    const id = entityOf(0n, 0n, 1001n);
    if (!id) throw new Error('no id');
    expect(accountAddress(id, bytes(`1220${ED25519_KEY}`))).toBe(`0x1220${ED25519_KEY}`);
    expect(accountAddress(id, bytes('11'.repeat(20)))).toBe('0.0.1001');
    expect(accountAddress(id, null)).toBe('0.0.1001');
  });

  it('makes the alias of a public key back', () => {
    const key = aliasKey(bytes(`3a21${SECP256K1_KEY}`));
    if (!key) throw new Error('no key');
    expect(Buffer.from(aliasOf(key)).toString('hex')).toBe(`3a21${SECP256K1_KEY}`);
  });
});
