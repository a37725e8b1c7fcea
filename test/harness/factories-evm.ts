import type pg from 'pg';
import { insertRow } from './factories.ts';

/** A 32-byte big-endian word. */
export function word32(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

/** Bytes without leading zeros, as sidecars record slots and values. */
function trimmedWord(value: bigint): Buffer {
  const hex = value === 0n ? '' : value.toString(16);
  return Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex');
}

/** A slot of `contract_state` (the current storage) as the importer writes it: 32-byte slot, trimmed value. */
export async function insertContractSlot(
  sql: pg.Client,
  row: { contract_id: bigint; slot: bigint; value: bigint; modified_timestamp: bigint },
): Promise<void> {
  await insertRow(sql, 'contract_state', {
    contract_id: row.contract_id,
    slot: word32(row.slot),
    value: trimmedWord(row.value),
    created_timestamp: row.modified_timestamp,
    modified_timestamp: row.modified_timestamp,
  });
}

/** A `contract_state_change` row as a sidecar gives it: slot and values with leading zeros trimmed. */
export async function insertSlotChange(
  sql: pg.Client,
  row: {
    contract_id: bigint;
    slot: bigint;
    value_read: bigint;
    value_written: bigint | null;
    consensus_timestamp: bigint;
  },
): Promise<void> {
  await insertRow(sql, 'contract_state_change', {
    consensus_timestamp: row.consensus_timestamp,
    contract_id: row.contract_id,
    payer_account_id: 2,
    slot: trimmedWord(row.slot),
    value_read: trimmedWord(row.value_read),
    value_written: row.value_written === null ? null : trimmedWord(row.value_written),
  });
}
