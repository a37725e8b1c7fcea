import { describe, expect, it } from 'vitest';
import { encodeEntityId } from '../params/entity-id.ts';
import { entityIdOfLongZero, longZeroAddress, systemNumOf } from './addresses.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('long-zero addresses', () => {
  it('encode shard (4 bytes), realm (8 bytes) and num (8 bytes)', () => {
    expect(hex(longZeroAddress(encodeEntityId({ shard: 0n, realm: 0n, num: 1001n })))).toBe(`${'0'.repeat(37)}3e9`);
    const id = encodeEntityId({ shard: 1n, realm: 2n, num: 3n });
    expect(hex(longZeroAddress(id))).toBe('00000001' + '0000000000000002' + '0000000000000003');
  });

  it('name an entity of the network’s own shard and realm only', () => {
    const id = encodeEntityId({ shard: 1n, realm: 2n, num: 3n });
    expect(entityIdOfLongZero(longZeroAddress(id), 1n, 2n)).toBe(id);
    expect(entityIdOfLongZero(longZeroAddress(id), 0n, 0n)).toBeUndefined();
  });

  it('are not read into an EVM address or a num beyond 38 bits', () => {
    expect(entityIdOfLongZero(Buffer.from('7e'.repeat(20), 'hex'), 0n, 0n)).toBeUndefined();
    expect(entityIdOfLongZero(Buffer.from(`${'0'.repeat(28)}${'f'.repeat(12)}`, 'hex'), 0n, 0n)).toBeUndefined();
  });

  it('give the num of a system address (shard and realm 0) for the system account rules', () => {
    expect(systemNumOf(Buffer.from(`${'0'.repeat(36)}0167`, 'hex'))).toBe(0x167n);
    expect(systemNumOf(Buffer.from(`01${'0'.repeat(34)}0167`, 'hex'))).toBeUndefined();
  });
});
