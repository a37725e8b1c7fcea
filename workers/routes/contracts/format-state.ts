import type { StateChangeJson } from '../../../db/queries/contract-result-details.ts';
import type { ContractStateRow } from '../../../db/queries/contract-state.ts';
import { entityId, timestampString } from '../../format/values.ts';
import { type Bytes, hexOf, prefixedHex, uint256Hex } from './hex.ts';
import { idEvmAddress } from './ids.ts';

/** The contract's own EVM address when it has one, else its long-zero address. */
function address(evmAddress: Bytes, contractId: bigint | number | string): string | null {
  return hexOf(evmAddress) ? prefixedHex(evmAddress) : idEvmAddress(contractId);
}

/** A storage change inside a contract result. */
export function formatStateChange(change: StateChangeJson) {
  return {
    address: address(change.evm_address, change.contract_id),
    contract_id: entityId(change.contract_id),
    slot: uint256Hex(change.slot),
    value_read: uint256Hex(change.value_read),
    value_written: uint256Hex(change.value_written),
  };
}

/** A storage slot of `/contracts/{id}/state`. */
export function formatState(row: ContractStateRow) {
  return {
    address: address(row.evm_address, row.contract_id),
    contract_id: entityId(row.contract_id),
    timestamp: timestampString(row.modified_timestamp),
    slot: uint256Hex(row.slot),
    value: uint256Hex(row.value),
  };
}
