/**
 * Entity ids and the 20-byte addresses the system contracts read and answer with. A long-zero address holds the
 * shard (4 bytes), realm (8 bytes) and num (8 bytes) of an entity, as the consensus node writes it; for shard 0 and
 * realm 0 that is the reference mirror's 12 zero bytes and the num.
 */
import { decodeEntityId } from '../../params/entity-id.ts';

/** The long-zero address of an encoded entity id (shard, realm and num packed as in the schema). */
export function longZeroAddress(id: bigint): Uint8Array {
  const out = new Uint8Array(20);
  const parts = decodeEntityId(id);
  if (!parts) return out;
  const view = new DataView(out.buffer);
  view.setUint32(0, Number(parts.shard));
  view.setBigUint64(4, parts.realm);
  view.setBigUint64(12, parts.num);
  return out;
}

export const ZERO_ADDRESS = new Uint8Array(20);

/** The system contracts' numbers: 0x…0167 and so on. */
export const HTS_ADDRESS = 0x167;
export const EXCHANGE_RATE_ADDRESS = 0x168;
export const PRNG_ADDRESS = 0x169;
export const HAS_ADDRESS = 0x16a;
export const HSS_ADDRESS = 0x16b;
