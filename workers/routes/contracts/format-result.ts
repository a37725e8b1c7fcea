import { responseCodeName, SUCCESS_CODES } from '../../../db/codes/response-codes.ts';
import type {
  BlockFields,
  ContractResultRow,
  EthereumTransactionFields,
} from '../../../db/queries/contract-results.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { formatAuthorizationList } from './format-authorization.ts';
import { dataHex, prefixedHex, quantityHex, withHexPrefix } from './hex.ts';
import { idEvmAddress } from './ids.ts';
import { senderAliasAddress } from './sender-alias.ts';
import { WEIBARS_PER_TINYBAR, weibarAmount, weibarToTinybar, weibarToTinybarHex } from './weibar.ts';

const EMPTY_BLOOM = `0x${'00'.repeat(256)}`;
const LEGACY_TRANSACTION_TYPE = 0;

/** `/contracts/{id}/results`: one contract result as stored (no Ethereum transaction, no block). */
export function formatContractResult(row: ContractResultRow) {
  return {
    address: row.evm_address.length > 0 ? prefixedHex(row.evm_address) : idEvmAddress(row.contract_id),
    amount: int64(row.amount),
    bloom: row.bloom !== null && row.bloom.length === 0 ? EMPTY_BLOOM : prefixedHex(row.bloom),
    call_result: prefixedHex(row.call_result),
    contract_id: entityId(row.contract_id),
    created_contract_ids: (row.created_contract_ids ?? []).map(entityId),
    error_message: row.error_message ? row.error_message : null,
    from: idEvmAddress(row.sender_id) ?? (row.sender_id === null ? senderAliasAddress(row.function_result) : null),
    function_parameters: prefixedHex(row.function_parameters),
    gas_consumed: int64(row.gas_consumed),
    gas_limit: int64(row.gas_limit),
    gas_used: int64(row.gas_used),
    timestamp: timestampString(row.consensus_timestamp),
    to: idEvmAddress(row.contract_id),
    hash: prefixedHex(row.transaction_hash),
  };
}

export interface ResultDetails {
  block: BlockFields;
  /** The Ethereum transaction, when the result came from one. */
  ethereum: EthereumTransactionFields | undefined;
  /** Included by the single-result routes only. */
  logs?: unknown[];
  stateChanges?: unknown[];
  /** The contents of the call data file, when the parameters come from it. */
  callDataFile?: Uint8Array | null;
  /** `hbar=true`: amounts in tinybar; false: the Ethereum transaction's weibar values. */
  hbar: boolean;
  /** `response.enableDelegationAddress`: show the EIP-7702 authorization list. */
  delegation: boolean;
}

/**
 * A contract result with its block and Ethereum transaction (`/contracts/results` and the single-result routes):
 * the Ethereum transaction's values replace the stored ones where it has them. Key order is the reference's:
 * the fields of formatContractResult first (replaced values keep their place), `logs` after `hash`,
 * `state_changes` after `transaction_index`, `authorization_list` last.
 */
export function formatContractResultDetails(row: ContractResultRow, details: ResultDetails) {
  const { block, ethereum: eth } = details;
  const base = formatContractResult(row);
  const success = SUCCESS_CODES.includes(row.transaction_result);
  const result = responseCodeName(row.transaction_result);
  const out: Record<string, unknown> = {
    ...base,
    block_hash: withHexPrefix(block.rf_hash),
    block_number: int64(block.rf_index),
    hash: dataHex(row.transaction_hash),
    ...(details.logs !== undefined ? { logs: details.logs } : {}),
    result,
    transaction_index: row.transaction_index,
    ...(details.stateChanges !== undefined ? { state_changes: details.stateChanges } : {}),
    status: success ? '0x1' : '0x0',
    failed_initcode: failedInitcode(row, eth, success),
    access_list: null,
    block_gas_used: block.rf_gas_used !== null && block.rf_gas_used !== '-1' ? int64(block.rf_gas_used) : null,
    chain_id: null,
    gas_price: null,
    max_fee_per_gas: null,
    max_priority_fee_per_gas: null,
    r: null,
    s: null,
    type: null,
    v: null,
    nonce: null,
  };

  if (eth === undefined) {
    if (!details.hbar && row.amount !== null) out.amount = BigInt(row.amount) * WEIBARS_PER_TINYBAR;
    return out;
  }
  out.access_list = dataHex(eth.et_access_list);
  if (details.delegation) out.authorization_list = formatAuthorizationList(eth.et_authorization_list);
  out.chain_id = quantityHex(eth.et_chain_id);
  if (!success && !row.error_message) out.error_message = result;
  if (row.sender_id !== null) out.from = idEvmAddress(row.sender_id);
  if (eth.et_gas_limit !== undefined && eth.et_gas_limit !== null) out.gas_limit = int64(eth.et_gas_limit);
  if (details.hbar) {
    out.amount = weibarToTinybar(eth.et_value, true);
    out.gas_price = weibarToTinybarHex(eth.et_gas_price);
    out.max_fee_per_gas = weibarToTinybarHex(eth.et_max_fee_per_gas);
    out.max_priority_fee_per_gas = weibarToTinybarHex(eth.et_max_priority_fee_per_gas);
  } else {
    out.amount = weibarAmount(eth.et_value);
    out.gas_price = quantityHex(eth.et_gas_price);
    out.max_fee_per_gas = quantityHex(eth.et_max_fee_per_gas);
    out.max_priority_fee_per_gas = quantityHex(eth.et_max_priority_fee_per_gas);
  }
  out.nonce = int64(eth.et_nonce);
  out.r = dataHex(eth.et_signature_r);
  out.s = dataHex(eth.et_signature_s);
  if (eth.et_to_address !== null && eth.et_to_address.length > 0) out.to = dataHex(eth.et_to_address);
  out.type = eth.et_type;
  // A legacy transaction's v holds its chain id. The importer always stores v for one (27 and up); the reference
  // fails on empty bytes, which it never reads, so those answer the recovery id as a missing v does.
  out.v =
    eth.et_type === LEGACY_TRANSACTION_TYPE && eth.et_signature_v !== null && eth.et_signature_v.length > 0
      ? BigInt(dataHex(eth.et_signature_v))
      : eth.et_recovery_id;
  if (eth.et_call_data && eth.et_call_data.length > 0) {
    out.function_parameters = dataHex(eth.et_call_data);
  } else if (
    row.function_parameters.length === 0 &&
    details.callDataFile !== undefined &&
    details.callDataFile !== null
  ) {
    out.function_parameters = dataHex(details.callDataFile);
  }
  return out;
}

/**
 * The init code of a failed contract creation: stored with the result, else (for a failed Ethereum transaction)
 * its call data; null otherwise.
 */
function failedInitcode(
  row: ContractResultRow,
  eth: EthereumTransactionFields | undefined,
  success: boolean,
): string | null {
  if (row.failed_initcode !== null && row.failed_initcode.length > 0) return dataHex(row.failed_initcode);
  if (!success && eth?.et_call_data && eth.et_call_data.length > 0) return dataHex(eth.et_call_data);
  return null;
}
