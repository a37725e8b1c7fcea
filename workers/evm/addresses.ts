/**
 * Hedera's two forms of an EVM address. The long-zero form encodes an entity id: 4 bytes shard, 8 bytes realm,
 * 8 bytes num. The other form is an entity's own 20-byte EVM address (`evm_address`, or a 20-byte `alias`).
 */
import { decodeEntityId, encodeEntityId, MAX_NUM } from '../params/entity-id.ts';

export const ADDRESS_BYTES = 20;

/** The long-zero address of an encoded entity id. */
export function longZeroAddress(id: bigint): Uint8Array {
  const parts = decodeEntityId(id);
  if (!parts) throw new RangeError(`Encoded entity id out of range: ${id}`);
  const out = new Uint8Array(ADDRESS_BYTES);
  const view = new DataView(out.buffer);
  view.setUint32(0, Number(parts.shard));
  view.setBigUint64(4, parts.realm);
  view.setBigUint64(12, parts.num);
  return out;
}

/**
 * The encoded entity id a long-zero address names in this network's shard and realm; undefined for any other
 * address (an EVM address, or a long-zero form of another shard or realm or beyond the num range).
 */
export function entityIdOfLongZero(address: Uint8Array, shard: bigint, realm: bigint): bigint | undefined {
  if (address.length !== ADDRESS_BYTES) return undefined;
  const view = new DataView(address.buffer, address.byteOffset, address.byteLength);
  if (BigInt(view.getUint32(0)) !== shard || view.getBigUint64(4) !== realm) return undefined;
  const num = view.getBigUint64(12);
  return num <= MAX_NUM ? encodeEntityId({ shard, realm, num }) : undefined;
}

/** The num of a long-zero address of shard and realm 0 (system accounts and precompiles live there); else undefined. */
export function systemNumOf(address: Uint8Array): bigint | undefined {
  for (let i = 0; i < 12; i++) if (address[i] !== 0) return undefined;
  const view = new DataView(address.buffer, address.byteOffset, address.byteLength);
  return view.getBigUint64(12);
}
