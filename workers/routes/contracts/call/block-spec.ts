/**
 * The `block` of a call, as the reference reads it (its BlockType): a tag, a decimal or 0x-hex number, or a 0x block
 * hash of 64 or 96 hex digits. `pending`, `safe` and `finalized` mean `latest`; empty means `latest`.
 */
export type BlockSpec =
  | { readonly kind: 'latest' }
  | { readonly kind: 'earliest' }
  | { readonly kind: 'number'; readonly number: bigint }
  /** Lowercase hex without 0x: a prefix of `record_file.hash` (a 32-byte EVM hash is its first half). */
  | { readonly kind: 'hash'; readonly hash: string };

export const LATEST: BlockSpec = { kind: 'latest' };

const BLOCK_PATTERN =
  /^(?:(earliest|finalized|latest|pending|safe)|(\d{1,20})|0x([0-9a-f]{64}|[0-9a-f]{96})|0x([0-9a-f]{1,16}))$/;
const LONG_MAX = 2n ** 63n - 1n;

/** Thrown with the reference's text; the body reader reports it as Jackson wraps a creator's exception. */
export class BlockSpecError extends Error {}

export function parseBlockSpec(value: string | undefined): BlockSpec {
  if (value === undefined || value === '') return LATEST;
  const match = BLOCK_PATTERN.exec(value.toLowerCase());
  if (!match) throw new BlockSpecError(`Invalid block value: ${value}`);
  const [, tag, decimal, hash, hex] = match;
  if (tag) return tag === 'earliest' ? { kind: 'earliest' } : LATEST;
  if (hash) return { kind: 'hash', hash };
  const number = BigInt(decimal ?? `0x${hex}`);
  if (number > LONG_MAX) {
    throw new BlockSpecError(`${decimal ? 'Decimal' : 'Hex'} value out of range for block: ${value}`);
  }
  return { kind: 'number', number };
}
