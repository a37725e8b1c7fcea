/**
 * The outcomes a system contract hands back to @ethereumjs: success with return data, revert with data, or an
 * exceptional halt (all the frame's gas, no data), each charging the gas the consensus node charges.
 */
import { EVMError, type ExecResult } from '@ethereumjs/evm';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { EvmRequestError } from '../types.ts';
import { encode, int } from './abi.ts';

/**
 * Gas of a view function of HTS and HAS (SystemContractGasCalculator.viewGasRequirement): the canonical price of
 * TokenGetInfo, $0.0001 = 1,000,000 tinycents, at the fixed gas price of 852,000 fee schedule units (852 tinycents)
 * a gas, rounded up, plus the 20% premium of a HAPI operation inside the EVM: 2,173 + 434.
 */
export const VIEW_GAS = 2607n;

/**
 * Gas of a PRNG call (PrngSystemContract.calculateGas, a non-static frame): the canonical price of UtilPrng, $0.001
 * = 10,000,000 tinycents, at 852,000 fee schedule units a gas, rounded up, plus 20%: 12,737 + 2,547.
 */
export const PRNG_GAS = 15284n;

/** Gas of an exchange rate conversion: `contracts.precompile.exchangeRateGasCost`, 100 by default. */
export const EXCHANGE_RATE_GAS = 100n;

/** The HAPI response codes the system contracts answer with. */
export type ResponseCodeName =
  | 'SUCCESS'
  | 'INVALID_ACCOUNT_ID'
  | 'INVALID_ALIAS_KEY'
  | 'INVALID_TOKEN_ID'
  | 'INVALID_TOKEN_NFT_SERIAL_NUMBER'
  | 'INVALID_ALLOWANCE_OWNER_ID'
  | 'INVALID_ALLOWANCE_SPENDER_ID'
  | 'KEY_NOT_PROVIDED'
  | 'INVALID_SOLIDITY_ADDRESS'
  | 'INVALID_TRANSACTION_BODY'
  | 'INSUFFICIENT_GAS'
  | 'INVALID_SIGNATURE_TYPE_MISMATCHING_KEY'
  | 'INVALID_ACCOUNT_AMOUNTS'
  | 'ACCOUNT_REPEATED_IN_ACCOUNT_AMOUNTS'
  | 'TRANSFERS_NOT_ZERO_SUM_FOR_TOKEN'
  | 'EMPTY_TOKEN_TRANSFER_ACCOUNT_AMOUNTS'
  | 'TOKEN_ID_REPEATED_IN_TOKEN_LIST'
  | 'ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON'
  | 'INVALID_NFT_ID'
  | 'TOKEN_WAS_DELETED'
  | 'TOKEN_IS_PAUSED'
  | 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT'
  | 'TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT'
  | 'ACCOUNT_FROZEN_FOR_TOKEN'
  | 'ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN'
  | 'INSUFFICIENT_TOKEN_BALANCE'
  | 'INSUFFICIENT_ACCOUNT_BALANCE'
  | 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO'
  | 'SPENDER_DOES_NOT_HAVE_ALLOWANCE'
  | 'AMOUNT_EXCEEDS_ALLOWANCE'
  | 'INVALID_SIGNATURE'
  | 'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE'
  | 'INVALID_RECEIVING_NODE_ACCOUNT'
  | 'SPENDER_ACCOUNT_SAME_AS_OWNER'
  | 'NEGATIVE_ALLOWANCE_AMOUNT'
  | 'DELEGATING_SPENDER_CANNOT_GRANT_APPROVE_FOR_ALL'
  | 'TOKEN_HAS_NO_SUPPLY_KEY'
  | 'TOKEN_HAS_NO_WIPE_KEY'
  | 'TOKEN_HAS_NO_FREEZE_KEY'
  | 'TOKEN_HAS_NO_KYC_KEY'
  | 'TOKEN_HAS_NO_PAUSE_KEY'
  | 'TOKEN_IS_IMMUTABLE'
  | 'INVALID_TOKEN_MINT_AMOUNT'
  | 'INVALID_TOKEN_BURN_AMOUNT'
  | 'TOKEN_MAX_SUPPLY_REACHED'
  | 'INVALID_WIPING_AMOUNT'
  | 'CANNOT_WIPE_TOKEN_TREASURY_ACCOUNT'
  | 'ACCOUNT_DOES_NOT_OWN_WIPED_NFT'
  | 'TREASURY_MUST_OWN_BURNED_NFT'
  | 'TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES'
  | 'ACCOUNT_IS_TREASURY'
  | 'INVALID_TOKEN_MINT_METADATA'
  | 'METADATA_TOO_LONG'
  | 'BATCH_SIZE_LIMIT_EXCEEDED'
  | 'TOKEN_REFERENCE_REPEATED'
  | 'NOT_SUPPORTED'
  | 'ACCOUNT_DELETED'
  | 'INVALID_TREASURY_ACCOUNT_FOR_TOKEN'
  | 'INSUFFICIENT_TX_FEE'
  | 'MISSING_TOKEN_SYMBOL'
  | 'MISSING_TOKEN_NAME'
  | 'TOKEN_NAME_TOO_LONG'
  | 'TOKEN_SYMBOL_TOO_LONG'
  | 'MEMO_TOO_LONG'
  | 'INVALID_TOKEN_INITIAL_SUPPLY'
  | 'INVALID_TOKEN_DECIMALS'
  | 'INVALID_TOKEN_MAX_SUPPLY'
  | 'INVALID_CUSTOM_FEE_COLLECTOR'
  | 'INVALID_TOKEN_ID_IN_CUSTOM_FEES'
  | 'FRACTION_DIVIDES_BY_ZERO'
  | 'INVALID_AUTORENEW_ACCOUNT'
  | 'INVALID_RENEWAL_PERIOD'
  | 'INVALID_EXPIRATION_TIME'
  | 'TOKEN_HAS_NO_FEE_SCHEDULE_KEY'
  | 'SCHEDULE_ALREADY_DELETED'
  | 'SCHEDULE_ALREADY_EXECUTED'
  | 'NO_NEW_VALID_SIGNATURES'
  | 'INVALID_PAYER_ACCOUNT_ID'
  | 'INVALID_SCHEDULE_ID'
  | 'RECORD_NOT_FOUND'
  | 'TOKEN_HAS_NO_METADATA_KEY'
  | 'TOKEN_HAS_NO_METADATA_OR_SUPPLY_KEY'
  | 'MISSING_SERIAL_NUMBERS'
  | 'NO_REMAINING_AUTOMATIC_ASSOCIATIONS'
  | 'EXISTING_AUTOMATIC_ASSOCIATIONS_EXCEED_GIVEN_LIMIT'
  | 'INVALID_OWNER_ID'
  | 'ACCOUNT_IS_IMMUTABLE'
  | 'EMPTY_TOKEN_REFERENCE_LIST'
  | 'CUSTOM_FEE_MUST_BE_POSITIVE'
  | 'CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON'
  | 'TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR'
  | 'CUSTOM_FRACTIONAL_FEE_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON'
  | 'CUSTOM_ROYALTY_FEE_ONLY_ALLOWED_FOR_NON_FUNGIBLE_UNIQUE'
  | 'FRACTIONAL_FEE_MAX_AMOUNT_LESS_THAN_MIN_AMOUNT'
  | 'SCHEDULE_IS_IMMUTABLE'
  | 'EMPTY_TOKEN_TRANSFER_BODY'
  | 'PENDING_NFT_AIRDROP_ALREADY_EXISTS'
  | 'EMPTY_PENDING_AIRDROP_ID_LIST'
  | 'PENDING_AIRDROP_ID_REPEATED'
  | 'INVALID_PENDING_AIRDROP_ID'
  | 'INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE'
  | 'CUSTOM_FEE_CHARGING_EXCEEDED_MAX_RECURSION_DEPTH'
  | 'CUSTOM_FEE_CHARGING_EXCEEDED_MAX_ACCOUNT_AMOUNTS'
  | 'INSUFFICIENT_PAYER_BALANCE'
  | 'ACCOUNT_ID_DOES_NOT_EXIST'
  | 'SCHEDULE_EXPIRATION_TIME_MUST_BE_HIGHER_THAN_CONSENSUS_TIME'
  | 'SCHEDULE_EXPIRATION_TIME_TOO_FAR_IN_FUTURE'
  | 'IDENTICAL_SCHEDULE_ALREADY_CREATED';

/** The code's number, from the ledger's table of codes. */
export function responseCode(name: ResponseCodeName): bigint {
  const code = responseCodeByName(name);
  if (code === undefined) throw new Error(`no response code ${name}`);
  return BigInt(code);
}

export function success(gas: bigint, gasLimit: bigint, output: Uint8Array): ExecResult {
  if (gas > gasLimit) return outOfGas(gasLimit);
  return { returnValue: output, executionGasUsed: gas };
}

/** A revert whose data is the status name in UTF-8, as the consensus node's `revertResult(status)` writes it. */
export function revertWith(status: ResponseCodeName, gas: bigint, gasLimit: bigint): ExecResult {
  if (gas > gasLimit) return outOfGas(gasLimit);
  return {
    returnValue: new TextEncoder().encode(status),
    executionGasUsed: gas,
    exceptionError: new EVMError(EVMError.errorMessages.REVERT),
  };
}

/**
 * The revert of a dispatched HAPI transaction that failed (`FullResult.revertResult(recordBuilder, …)`): its status
 * as a 32-byte word holding the code's number, as the mono-service answered.
 */
export function revertWithCode(status: ResponseCodeName, gas: bigint, gasLimit: bigint): ExecResult {
  if (gas > gasLimit) return outOfGas(gasLimit);
  return {
    returnValue: encode(int(responseCode(status))),
    executionGasUsed: gas,
    exceptionError: new EVMError(EVMError.errorMessages.REVERT),
  };
}

/** An exceptional halt: the frame's gas is gone and the caller sees a failed call (CONTRACT_EXECUTION_EXCEPTION). */
export function halt(gasLimit: bigint): ExecResult {
  return {
    returnValue: new Uint8Array(0),
    executionGasUsed: gasLimit,
    exceptionError: new EVMError(EVMError.errorMessages.INVALID_OPCODE),
  };
}

function outOfGas(gasLimit: bigint): ExecResult {
  return {
    returnValue: new Uint8Array(0),
    executionGasUsed: gasLimit,
    exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
  };
}

/**
 * A selector none of the system contract's translators claims: the consensus node answers `successResult(Bytes.EMPTY,
 * 0)` (AbstractNativeSystemContract.computeFully, since 0.62, hiero-consensus-node #18733, as in 0.73 the reference
 * runs): the call succeeds, returns nothing and costs no gas, as a call to an account without code would.
 */
export function unknownSelector(): ExecResult {
  return { returnValue: new Uint8Array(0), executionGasUsed: 0n };
}

/** A selector this port does not run (writes, schedules): the request fails with 501 as the reference answers. */
export function notImplemented(): never {
  throw new EvmRequestError(501, 'Not Implemented');
}
