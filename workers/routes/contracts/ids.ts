import { decodeEntityId } from '../../params/entity-id.ts';

type Encoded = bigint | string | number | null | undefined;

/**
 * The long-zero EVM address the reference derives from a stored id: the num alone, as 40 hex digits (shard and
 * realm are left out); null for a missing id and for num 0.
 */
export function idEvmAddress(encoded: Encoded): string | null {
  if (encoded === null || encoded === undefined) return null;
  const parts = decodeEntityId(BigInt(encoded));
  if (!parts || parts.num === 0n) return null;
  return `0x${parts.num.toString(16).padStart(40, '0')}`;
}
