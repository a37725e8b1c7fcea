import { base32Decode } from '../format/base32.ts';

/**
 * Account aliases as the reference's REST API reads them: base32 (`A-Z2-7`, no padding), optionally prefixed by
 * `realm.` or `shard.realm.`, which must then be the configured shard and realm.
 */

const ALIAS = /^(\d{1,5}\.){0,2}[A-Z2-7]+$/;
const ALIAS_NO_SHARD_REALM = /^[A-Z2-7]+$/;

/** The syntactic check (`AccountAlias.isValid`): a text that passes it is read as an alias, not an id. */
export function isAccountAliasText(text: string, noShardRealm = false): boolean {
  return (noShardRealm ? ALIAS_NO_SHARD_REALM : ALIAS).test(text);
}

/**
 * The alias bytes of a text that passes `isAccountAliasText`; undefined when its shard or realm is not the
 * configured one or its base32 is not a whole number of bytes (the reference refuses both).
 */
export function parseAccountAlias(
  text: string,
  system: { shard: bigint | number; realm: bigint | number },
): Uint8Array | undefined {
  if (!isAccountAliasText(text)) return undefined;
  const parts = text.split('.');
  const base32 = parts.pop() ?? '';
  const [shard, realm] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (shard !== undefined && BigInt(shard) !== BigInt(system.shard)) return undefined;
  if (realm !== undefined && BigInt(realm) !== BigInt(system.realm)) return undefined;
  return base32Decode(base32);
}
