import { dropLeadingZero, prefixedHex } from './hex.ts';

/** A stored JSON value as the reference hex-encodes it: hex text (`0x` optional, whole bytes) or an integer. */
function toHex(value: unknown, pad = 0): string {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))) {
    return `0x${value.toString(16).padStart(pad, '0')}`;
  }
  if (typeof value !== 'string') return '0x';
  return prefixedHex(value.startsWith('0x') ? value.slice(2) : value, pad);
}

/**
 * The EIP-7702 authorization list of an Ethereum transaction (stored as JSON): each item's address as 20 bytes,
 * its chain id as a quantity, and nonce, r, s and y parity as stored. Missing means empty.
 */
export function formatAuthorizationList(list: unknown[] | null) {
  return (list ?? []).map((raw) => {
    const item = (raw ?? {}) as Record<string, unknown>;
    return {
      address: toHex(item.address, 40),
      chain_id: dropLeadingZero(toHex(item.chain_id)),
      nonce: item.nonce,
      r: item.r,
      s: item.s,
      y_parity: item.y_parity,
    };
  });
}
