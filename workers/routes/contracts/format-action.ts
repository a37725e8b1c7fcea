import type { ContractActionRow } from '../../../db/queries/contract-result-details.ts';
import { ApiError } from '../../errors.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { dataHex, prefixedHex } from './hex.ts';
import { idEvmAddress } from './ids.ts';

const CALL_TYPES: Readonly<Record<number, string>> = {
  0: 'NO_ACTION',
  1: 'CALL',
  2: 'CREATE',
  3: 'PRECOMPILE',
  4: 'SYSTEM',
};

const RESULT_DATA_TYPES: Readonly<Record<number, string>> = { 11: 'OUTPUT', 12: 'REVERT_REASON', 13: 'ERROR' };

const CALL_OPERATION_TYPES: Readonly<Record<number, string>> = {
  0: 'UNKNOWN',
  1: 'CALL',
  2: 'CALLCODE',
  3: 'DELEGATECALL',
  4: 'STATICCALL',
  5: 'CREATE',
  6: 'CREATE2',
};

/** A contract action (one call of a transaction's call tree). */
export function formatAction(row: ContractActionRow) {
  // the reference refuses an action without a caller when it formats it
  if (row.caller === null) throw ApiError.badRequest('Null entity ID');
  const recipient = row.recipient_account ?? row.recipient_contract;
  return {
    call_depth: row.call_depth,
    call_operation_type: CALL_OPERATION_TYPES[row.call_operation_type ?? 0],
    call_type: row.call_type === null ? undefined : CALL_TYPES[row.call_type],
    caller: entityId(row.caller),
    caller_type: row.caller_type,
    from: idEvmAddress(row.caller),
    gas: int64(row.gas),
    gas_used: int64(row.gas_used),
    index: row.index,
    input: dataHex(row.input),
    recipient: entityId(recipient),
    recipient_type: recipient === null ? null : row.recipient_account !== null ? 'ACCOUNT' : 'CONTRACT',
    result_data: dataHex(row.result_data),
    result_data_type: RESULT_DATA_TYPES[row.result_data_type],
    timestamp: timestampString(row.consensus_timestamp),
    to: row.recipient_address !== null ? prefixedHex(row.recipient_address, 40) : idEvmAddress(recipient),
    value: int64(row.value),
  };
}
