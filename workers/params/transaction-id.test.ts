import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { encodeEntityId } from './entity-id.ts';
import {
  formatTransactionId,
  INVALID_TRANSACTION_ID_MESSAGE,
  parseEthHash,
  parseTransactionHash,
  parseTransactionId,
  parseTransactionIdOrHash,
} from './transaction-id.ts';

const HASH_HEX = 'ab4af784ae69ca3e1d17fef8491f7f89a0e8a3b80ad3748b841110f0345ada53456bc14bbe9ee6f441829c2849933ac4';
const hexOf = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

const failureOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.messages.map((m) => m.message).join(' | ')}`;
    throw error;
  }
  return undefined;
};

describe('parseTransactionId', () => {
  it.each<[string, bigint, bigint]>([
    ['0.0.2-1234567890-000000001', 2n, 1234567890000000001n],
    ['0.0.10-1234567890-0', 10n, 1234567890000000000n],
    // nanos are a number, not a fraction: `-1` is one nanosecond
    ['0.0.1-1234567891-1', 1n, 1234567891000000001n],
    ['0.0.1-01-0', 1n, 1000000000n],
    ['0.0.1-0-0', 1n, 0n],
    ['0.5.7-1-999999999', encodeEntityId({ shard: 0n, realm: 5n, num: 7n }), 1999999999n],
    ['1023.65535.274877906943-9223372036854775807-999999999', -1n, 9223372036854775807999999999n],
    ['0.0.0000000000000000000000000000000000000005-1-1', 5n, 1000000001n],
  ])('%s', (text, payer, validStartNs) => {
    expect(parseTransactionId(text)).toEqual({ payer, validStartNs });
  });

  it.each<[string, string]>([
    ['bad-string', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.1', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.1-1234567891-0000000000', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.1-1234567891-000000000 ', INVALID_TRANSACTION_ID_MESSAGE],
    [' 0.0.1-1234567891-000000000', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.1- 1234567891-000000000', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.1-9223372036854775808-0', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.1-12345678901234567890-0', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.1--9--0', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.1.10-1234567891.000000000', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.2@1234567890.000000001', INVALID_TRANSACTION_ID_MESSAGE],
    ['2-1234567890-000000001', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.2-1234567890-000000001', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.1.x-1235234-5334', INVALID_TRANSACTION_ID_MESSAGE],
    ['', INVALID_TRANSACTION_ID_MESSAGE],
    ['0.0.274877906944-1-1', 'Invalid entity ID "0.0.274877906944"'],
    ['00000.0.1-1-1', 'Invalid entity ID "00000.0.1"'],
    ['1024.0.1-1-1', 'Invalid entity ID "1024.0.1"'],
    ['0.0.71eaa748d5252be68c1185588beca495459fdba4-1-1', INVALID_TRANSACTION_ID_MESSAGE],
  ])('%j fails with %j', (text, message) => {
    expect(failureOf(() => parseTransactionId(text))).toBe(`400 ${message}`);
  });

  it('answers 400 for a 40-digit payer that reads as an opaque EVM address, where the reference answers 500', () => {
    expect(failureOf(() => parseTransactionId('0.0.1000000000000000000000000000000000000000-1-1'))).toBe(
      `400 ${INVALID_TRANSACTION_ID_MESSAGE}`,
    );
  });
});

describe('parseTransactionHash', () => {
  it.each<[string, string | undefined]>([
    [HASH_HEX, HASH_HEX],
    [HASH_HEX.toUpperCase(), HASH_HEX],
    [`0x${HASH_HEX}`, HASH_HEX],
    ['q0r3hK5pyj4dF_74SR9_iaDoo7gK03SLhBEQ8DRa2lNFa8FLvp7m9EGCnChJkzrE', HASH_HEX],
    ['q0r3hK5pyj4dF/74SR9/iaDoo7gK03SLhBEQ8DRa2lNFa8FLvp7m9EGCnChJkzrE', HASH_HEX],
    [
      'rovr8cn6DzCTVuSAV/YEevfN5jA30FCdFt3Dsg4IUVi/3xTRU0XBsYsZm3L+1Kxv',
      'ae8bebf1c9fa0f309356e48057f6047af7cde63037d0509d16ddc3b20e085158bfdf14d15345c1b18b199b72fed4ac6f',
    ],
    [
      'rovr8cn6DzCTVuSAV_YEevfN5jA30FCdFt3Dsg4IUVi_3xTRU0XBsYsZm3L-1Kxv',
      'ae8bebf1c9fa0f309356e48057f6047af7cde63037d0509d16ddc3b20e085158bfdf14d15345c1b18b199b72fed4ac6f',
    ],
    // 64 hex digits are read as base64, as the reference does
    [
      'ff90773193892540084e62086df3953d2362061b16cf682fde5bb00830b232b2',
      '7dff74efbdf5f77f3ddb9e34d3ce1eeb6d3ce9d7f7f79ddddb7eb6d3ad5bd7a71febcd9f75ee5b6f4d3cdf46f6df66f6',
    ],
    ['rovr8cn6DzCTVuSAV/YEevfN5jA30FCdFt3Dsg4IUVi/3xTRU0XBsYsZm3L+1===', undefined],
    ['q0r3hK5pyj4dF/74SR9/iaDoo7gK03SLhBEQ8DRa2lNFa8FLvp7m9EGCnChJ', undefined],
    ['q0r3hK5pyj4dF/74SR9/iaDoo7gK03SLhBEQ8DRa2lNFa8FLvp7m9EGCnChJkzrEaaaa', undefined],
    ['q0r3hK5pyj4dF/74SR9/iaDoo7gK03SLhBEQ8DRa2lNFa8FLvp7m9EGCnChJ????', undefined],
    [`${HASH_HEX}beef`, undefined],
    [HASH_HEX.slice(0, -2), undefined],
    [`0x${HASH_HEX.slice(0, -2)}`, undefined],
    [`0X${HASH_HEX}`, undefined],
    ['', undefined],
  ])('%j', (text, expected) => {
    expect(hexOf(parseTransactionHash(text))).toBe(expected);
  });
});

describe('parseTransactionIdOrHash', () => {
  it('reads hashes first, then ids', () => {
    expect(parseTransactionIdOrHash(`0x${HASH_HEX}`)).toEqual({
      kind: 'hash',
      hash: Uint8Array.from(HASH_HEX.match(/../g) ?? [], (b) => Number.parseInt(b, 16)),
    });
    expect(parseTransactionIdOrHash('0.0.10-1234567890-000000001')).toEqual({
      kind: 'id',
      payer: 10n,
      validStartNs: 1234567890000000001n,
    });
  });

  it.each([
    '0.1.10-1234567891.000000000',
    'izUDXqZ8gOhKlL5vbFInnw2VObTXzNWEH2QOg7XOUQwl9Mp2SVil8lufZIU6xJEEk===',
    `0x${HASH_HEX.slice(0, -4)}`,
    HASH_HEX.slice(0, -4),
  ])('refuses %j with the reference message', (text) => {
    expect(failureOf(() => parseTransactionIdOrHash(text))).toBe(`400 ${INVALID_TRANSACTION_ID_MESSAGE}`);
  });

  it('uses the configured shard and realm for an EVM-form payer', () => {
    const text = '1.2.0000000000000000000000000000000000000005-1-1';
    expect(failureOf(() => parseTransactionIdOrHash(text))).toBe(`400 Invalid entity ID "${text.slice(0, -4)}"`);
    expect(parseTransactionIdOrHash(text, { shard: 1, realm: 2 })).toMatchObject({ kind: 'id' });
  });
});

describe('parseEthHash', () => {
  it.each<[string, string | undefined]>([
    [
      '4a563af33c4871b51a8b108aa2fe1dd5280a30dfb7236170ae5e5e7957eb6392',
      '4a563af33c4871b51a8b108aa2fe1dd5280a30dfb7236170ae5e5e7957eb6392',
    ],
    [
      '0x4A563AF33C4871B51A8B108AA2FE1DD5280A30DFB7236170AE5E5E7957EB6392',
      '4a563af33c4871b51a8b108aa2fe1dd5280a30dfb7236170ae5e5e7957eb6392',
    ],
    [HASH_HEX, undefined],
    ['0x4a56', undefined],
    ['0.0.5001-1676540001-234390005', undefined],
  ])('%j', (text, expected) => {
    expect(hexOf(parseEthHash(text))).toBe(expected);
  });
});

describe('formatTransactionId', () => {
  it.each<[bigint, bigint, string]>([
    [2n, 1234567890000000001n, '0.0.2-1234567890-000000001'],
    [encodeEntityId({ shard: 1n, realm: 2n, num: 3n }), 5n, '1.2.3-0-000000005'],
  ])('%s %s -> %s', (payer, validStartNs, expected) => {
    expect(formatTransactionId(payer, validStartNs)).toBe(expected);
  });
});
