/**
 * Gas as the consensus node charges a ContractCall or ContractCreate: the intrinsic gas of the transaction, the
 * execution gas, less the refund (London: at most a fifth of the gas used). The mirror sets
 * `contracts.maxRefundPercentOfGasLimit` to 100, so the node's rule of charging at least 80% of the gas limit
 * does not apply.
 */
const TX_GAS = 21_000n;
const TX_DATA_ZERO_GAS = 4n;
const TX_DATA_NONZERO_GAS = 16n;
const TX_CREATE_GAS = 32_000n;
/** EIP-3860 (Shanghai): 2 gas per 32-byte word of init code. */
const INITCODE_WORD_GAS = 2n;
const MAX_REFUND_QUOTIENT = 5n;

export function intrinsicGas(data: Uint8Array, create: boolean, chargesInitcodeWords: boolean): bigint {
  let gas = TX_GAS;
  for (const byte of data) gas += byte === 0 ? TX_DATA_ZERO_GAS : TX_DATA_NONZERO_GAS;
  if (create) {
    gas += TX_CREATE_GAS;
    if (chargesInitcodeWords) gas += INITCODE_WORD_GAS * ((BigInt(data.length) + 31n) / 32n);
  }
  return gas;
}

/** Gas used after the refund: the refund is capped at a fifth of the gas used before it. */
export function gasAfterRefund(gasUsed: bigint, refund: bigint): bigint {
  const cap = gasUsed / MAX_REFUND_QUOTIENT;
  return gasUsed - (refund < cap ? refund : cap);
}
