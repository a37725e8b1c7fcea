/**
 * Gas rules a consensus node applies around the EVM's own execution gas: the intrinsic cost of a transaction,
 * the refund cap, and Hedera's charge of at least 80% of the gas limit.
 */

const TX_GAS = 21_000n;
const CREATE_GAS = 32_000n;
/** EIP-3860: per 32-byte word of initcode. */
const INITCODE_WORD_GAS = 2n;
/** EIP-7702: intrinsic gas per authorization, as if each created its authority. */
const PER_EMPTY_ACCOUNT_COST = 25_000n;
/** EIP-7702: what an authorization costs when its authority exists; the difference is refunded. */
const PER_AUTH_BASE_COST = 12_500n;
/** EIP-3529 (London): refunds are at most a fifth of the gas used. */
const MAX_REFUND_QUOTIENT = 5n;
/** Hedera's `contracts.maxRefundPercentOfGasLimit`: unused gas above 20% of the limit is not refunded. */
const MAX_REFUND_PERCENT_OF_GAS_LIMIT = 20n;

/**
 * 21,000, plus 4 per zero and 16 per other byte of data, plus for a creation 32,000 and 2 per initcode word, plus
 * 25,000 per EIP-7702 authorization.
 */
export function intrinsicGas(data: Uint8Array, create: boolean, authorizations = 0): bigint {
  let gas = TX_GAS + PER_EMPTY_ACCOUNT_COST * BigInt(authorizations);
  for (const byte of data) gas += byte === 0 ? 4n : 16n;
  if (create) gas += CREATE_GAS + INITCODE_WORD_GAS * ((BigInt(data.length) + 31n) / 32n);
  return gas;
}

/** EIP-7702: added to the refund counter for each applied authorization whose authority already existed. */
export function existingAuthorityRefund(authorities: number): bigint {
  return (PER_EMPTY_ACCOUNT_COST - PER_AUTH_BASE_COST) * BigInt(authorities);
}

/** Gas used after refunds: the refund counter capped at a fifth of the gas used before it. */
export function afterRefund(used: bigint, refundCounter: bigint): bigint {
  const cap = used / MAX_REFUND_QUOTIENT;
  return used - (refundCounter < cap ? refundCounter : cap);
}

/** What the network charges and records as `gasUsed`: the EVM's gas, but never less than 80% of the limit. */
export function chargedGas(evmGas: bigint, gasLimit: bigint): bigint {
  const floor = (gasLimit * (100n - MAX_REFUND_PERCENT_OF_GAS_LIMIT)) / 100n;
  return evmGas > floor ? evmGas : floor;
}
