/**
 * The HAPI status the consensus node gives an EVM failure: a revert, out of gas, a state change in a static call,
 * a halt for a Hedera rule (`hederaHalt`), and every other exceptional halt (invalid opcode, bad jump, stack
 * errors, failed precompiles).
 */
import { EVMError } from '@ethereumjs/evm';

type EvmErrorMessage = ConstructorParameters<typeof EVMError>[0];

const STATUS_OF_ERROR = new Map<string, string>([
  [EVMError.errorMessages.REVERT, 'CONTRACT_REVERT_EXECUTED'],
  [EVMError.errorMessages.OUT_OF_GAS, 'INSUFFICIENT_GAS'],
  [EVMError.errorMessages.CODESTORE_OUT_OF_GAS, 'INSUFFICIENT_GAS'],
  [EVMError.errorMessages.STATIC_STATE_CHANGE, 'LOCAL_CALL_MODIFICATION_EXCEPTION'],
  [EVMError.errorMessages.INSUFFICIENT_BALANCE, 'INSUFFICIENT_PAYER_BALANCE'],
]);

/** Marks the EVM errors that carry a Hedera status of their own. */
const HEDERA_HALT = 'hedera halt: ';

/** An exceptional halt (all the frame's gas spent) that fails the call with `status`. */
export function hederaHalt(status: 'INVALID_SOLIDITY_ADDRESS'): EVMError {
  // The EVM treats any EVMError as a halt and keeps its message for the result.
  return new EVMError(`${HEDERA_HALT}${status}` as EvmErrorMessage);
}

export function statusOfError(error: string): string {
  if (error.startsWith(HEDERA_HALT)) return error.slice(HEDERA_HALT.length);
  return STATUS_OF_ERROR.get(error) ?? 'CONTRACT_EXECUTION_EXCEPTION';
}
