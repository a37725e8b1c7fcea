import { describe, expect, it } from 'vitest';
import { isAccountAliasText, parseAccountAlias } from './account-alias.ts';

const ALIAS = 'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ';
const SYSTEM = { shard: 0, realm: 0 };

describe('account aliases', () => {
  it('reads an alias with or without the configured shard and realm', () => {
    for (const text of [ALIAS, `0.${ALIAS}`, `0.0.${ALIAS}`]) {
      expect(parseAccountAlias(text, SYSTEM)?.length).toBe(32);
    }
  });

  it('refuses a foreign shard or realm and base32 that is not whole bytes', () => {
    expect(parseAccountAlias(`1.${ALIAS}`, SYSTEM)).toBeUndefined();
    expect(parseAccountAlias(`1.0.${ALIAS}`, SYSTEM)).toBeUndefined();
    expect(parseAccountAlias('ABC', SYSTEM)).toBeUndefined();
  });

  it('tells alias text from other text, with or without a shard and realm prefix', () => {
    expect(isAccountAliasText(`0.0.${ALIAS}`)).toBe(true);
    expect(isAccountAliasText(`0.0.${ALIAS}`, true)).toBe(false);
    expect(isAccountAliasText('0.0.1001')).toBe(false);
    expect(isAccountAliasText('abc')).toBe(false);
  });
});
