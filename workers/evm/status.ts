/**
 * The HAPI status the consensus node gives an EVM failure: a revert, out of gas, a state change in a static call,
 * and every other exceptional halt (invalid opcode, bad jump, stack errors, failed precompiles).
 */
import { EVMError } from '@ethereumjs/evm';

const STATUS_OF_ERROR = new Map<string, string>([
  [EVMError.errorMessages.REVERT, 'CONTRACT_REVERT_EXECUTED'],
  [EVMError.errorMessages.OUT_OF_GAS, 'INSUFFICIENT_GAS'],
  [EVMError.errorMessages.CODESTORE_OUT_OF_GAS, 'INSUFFICIENT_GAS'],
  [EVMError.errorMessages.STATIC_STATE_CHANGE, 'LOCAL_CALL_MODIFICATION_EXCEPTION'],
  [EVMError.errorMessages.INSUFFICIENT_BALANCE, 'INSUFFICIENT_PAYER_BALANCE'],
]);

export function statusOfError(error: string): string {
  return STATUS_OF_ERROR.get(error) ?? 'CONTRACT_EXECUTION_EXCEPTION';
}
