import type { Database } from '../../../db/client.ts';
import { entityIdsByAlias, entityIdsByEvmAddress } from '../../../db/queries/accounts-lookup.ts';
import { ApiError } from '../../errors.ts';
import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from '../../params/entity-id.ts';
import { conversionFailed, javaNotFound } from '../../params/java/errors.ts';

/**
 * The `{id}` path segment of the routes the reference serves from its Java process (`/accounts/{id}/allowances/
 * nfts`, `/accounts/{id}/airdrops/*`): an entity id (`num`, `realm.num`, `shard.realm.num`, taken as is, existing
 * or not), else a 40-hex EVM address (any prefix of `shard.realm.` or `0x`), else a base32 alias of 40 to 70
 * characters, the last two looked up among entities not deleted. Anything else fails to convert.
 */
export type JavaAccountId =
  | { kind: 'id'; id: bigint }
  | { kind: 'evm-address'; address: Uint8Array }
  | { kind: 'alias'; alias: Uint8Array };

const ENTITY_ID = /^(?:(\d{1,4})\.)?(?:(\d{1,5})\.)?(\d{1,12})$/;
const EVM_ADDRESS = /^(?:(?:\d{1,5}\.)?(?:\d{1,5}\.)?|0x)?([A-Fa-f0-9]{40})$/;
const ALIAS = /^(?:\d{1,5}\.)?(?:\d{1,5}\.)?([A-Z2-7]{40,70})$/;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Lengths (modulo 8) at which unpadded base32 can end; Guava refuses the others. */
const VALID_BASE32_ENDS = new Set([0, 2, 4, 5, 7]);

const hexToBytes = (hex: string): Uint8Array =>
  Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));

/** Guava's lenient base32: whole bytes only, leftover bits ignored. */
function decodeBase32(text: string): Uint8Array | undefined {
  if (!VALID_BASE32_ENDS.has(text.length % 8)) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let written = 0;
  for (const char of text) {
    buffer = ((buffer << 5) | BASE32.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

/** Parses the segment; `Failed to convert 'id'` for text of no form or an id out of range. */
export function parseJavaAccountId(text: string, network: { shard: number; realm: number }): JavaAccountId {
  const id = ENTITY_ID.exec(text);
  if (id) {
    const [, first, second, numText] = id;
    let shard = BigInt(network.shard);
    let realm = BigInt(network.realm);
    // one prefix is the realm, two are shard and realm
    if (first !== undefined && second !== undefined) [shard, realm] = [BigInt(first), BigInt(second)];
    else if (first !== undefined || second !== undefined) realm = BigInt((first ?? second) as string);
    const num = BigInt(numText as string);
    if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) throw conversionFailed('id');
    return { kind: 'id', id: encodeEntityId({ shard, realm, num }) };
  }
  const evm = EVM_ADDRESS.exec(text);
  if (evm) return { kind: 'evm-address', address: hexToBytes(evm[1] as string) };
  const alias = ALIAS.exec(text);
  const bytes = alias && decodeBase32(alias[1] as string);
  if (bytes) return { kind: 'alias', alias: bytes };
  throw conversionFailed('id');
}

/** The encoded id of a parsed segment; `No account found for the given ID` (404) when nothing matches. */
export async function lookupJavaAccountId(db: Database, id: JavaAccountId): Promise<bigint> {
  if (id.kind === 'id') return id.id;
  const ids =
    id.kind === 'alias'
      ? await entityIdsByAlias(db, id.alias, 'null-is-not-alive')
      : await entityIdsByEvmAddress(db, id.address);
  if (ids.length > 1) throw ApiError.internal(new Error('several live entities match one alias or EVM address'));
  const [found] = ids;
  if (found === undefined) throw javaNotFound('No account found for the given ID');
  return found;
}
