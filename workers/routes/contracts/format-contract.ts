import type { ContractDetailRow, ContractRow } from '../../../db/queries/contracts.ts';
import { keyObject } from '../../format/key.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { prefixedHex, withHexPrefix } from './hex.ts';
import { idEvmAddress } from './ids.ts';

/** A stored auto renew period is in seconds; expiration derives from it when no expiration was stored. */
const NANOS_PER_SECOND = 1_000_000_000n;

/** `[lower,upper)` text of an int8range: its bounds (null when open). */
function rangeBounds(text: string): { from: string | null; to: string | null } {
  const match = /^[[(](\d*),(\d*)[\])]$/.exec(text);
  return { from: match?.[1] || null, to: match?.[2] || null };
}

function expiration(row: ContractRow): string | null {
  if (row.expiration_timestamp !== null) return timestampString(row.expiration_timestamp);
  if (row.created_timestamp === null || row.auto_renew_period === null) return null;
  return timestampString(BigInt(row.created_timestamp) + BigInt(row.auto_renew_period) * NANOS_PER_SECOND);
}

/** One contract of `GET /contracts`. */
export function formatContract(row: ContractRow) {
  const range = rangeBounds(row.timestamp_range);
  return {
    admin_key: keyObject(row.key),
    auto_renew_account: entityId(row.auto_renew_account_id),
    auto_renew_period: int64(row.auto_renew_period),
    contract_id: entityId(row.id),
    created_timestamp: timestampString(row.created_timestamp),
    deleted: row.deleted,
    evm_address: row.evm_address === null ? idEvmAddress(row.id) : prefixedHex(row.evm_address),
    expiration_timestamp: expiration(row),
    file_id: entityId(row.file_id),
    max_automatic_token_associations: row.max_automatic_token_associations,
    memo: row.memo,
    nonce: int64(row.ethereum_nonce),
    obtainer_id: entityId(row.obtainer_id),
    permanent_removal: row.permanent_removal,
    proxy_account_id: entityId(row.proxy_account_id),
    timestamp: { from: timestampString(range.from), to: timestampString(range.to) },
  };
}

/**
 * `GET /contracts/{id}`: the contract plus its code. `bytecode` is the init code: the text of the contract's file
 * when it was created from a user file (stored as hex text), else the `initcode` column.
 */
export function formatContractDetail(row: ContractDetailRow) {
  const fromFile = row.file_bytecode !== null ? new TextDecoder().decode(row.file_bytecode) : null;
  const usesFile = row.file_bytecode !== null || isUserFile(row.file_id);
  return {
    ...formatContract(row),
    bytecode: usesFile ? withHexPrefix(fromFile) : prefixedHex(row.initcode),
    runtime_bytecode: prefixedHex(row.runtime_bytecode),
  };
}

const isUserFile = (fileId: string | null): boolean => fileId !== null && (BigInt(fileId) & ((1n << 38n) - 1n)) > 1000n;
