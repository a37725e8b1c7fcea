import type { ContractLogRow } from '../../../db/queries/contract-logs.ts';
import type { ResultLogJson } from '../../../db/queries/contract-result-details.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { type Bytes, dataHex, prefixedHex, uint256Hex, withHexPrefix } from './hex.ts';
import { idEvmAddress } from './ids.ts';

type LogFields = Pick<ResultLogJson, 'index'> & {
  bloom: Bytes;
  contract_id: bigint | number | string;
  data: Bytes;
  topic0: Bytes;
  topic1: Bytes;
  topic2: Bytes;
  topic3: Bytes;
  evm_address: Bytes;
};

/** A log inside a contract result: the emitting contract, bloom, data (a 32-byte word at least) and topics. */
export function formatResultLog(log: LogFields) {
  return {
    address:
      log.evm_address === null || log.evm_address === undefined
        ? idEvmAddress(log.contract_id)
        : prefixedHex(log.evm_address),
    bloom: prefixedHex(log.bloom),
    contract_id: entityId(log.contract_id),
    data: prefixedHex(log.data, 64),
    index: log.index,
    topics: [log.topic0, log.topic1, log.topic2, log.topic3].flatMap((topic) =>
      topic === null || topic === undefined ? [] : [uint256Hex(topic)],
    ),
  };
}

/** A log of `/contracts/results/logs`: with its block, root contract, timestamp and transaction. */
export function formatLog(row: ContractLogRow) {
  return {
    ...formatResultLog(row),
    block_hash: withHexPrefix(row.rf_hash),
    block_number: int64(row.rf_index),
    root_contract_id: entityId(row.root_contract_id),
    timestamp: timestampString(row.consensus_timestamp),
    transaction_hash: dataHex(row.transaction_hash),
    transaction_index: row.transaction_index,
  };
}
