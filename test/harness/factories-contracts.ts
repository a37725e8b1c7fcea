import type pg from 'pg';
import { insertRow } from './factories.ts';
import { insertRecordFile as insertBlock } from './factories-blocks.ts';

type Row = Record<string, unknown>;

/** A contract: its entity row (current) and its `contract` row. */
export async function insertContract(
  sql: pg.Client,
  row: { id: bigint; created_timestamp: bigint } & Row,
  contract: Row = {},
): Promise<void> {
  await insertRow(sql, 'entity', {
    num: row.id,
    realm: 0,
    shard: 0,
    memo: 'contract memo',
    type: 'CONTRACT',
    deleted: false,
    decline_reward: false,
    max_automatic_token_associations: 0,
    timestamp_range: `[${row.created_timestamp},)`,
    ...row,
  });
  await insertRow(sql, 'contract', { id: row.id, ...contract });
}

/**
 * A contract result with its contract_transaction rows (one per involved contract and the payer) and its
 * contract_transaction_hash row, as the importer writes them.
 */
export async function insertContractResult(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; contract_id: bigint; payer_account_id: bigint } & Row,
  involved: bigint[] = [],
): Promise<void> {
  const hash = (row.transaction_hash as Buffer | undefined) ?? Buffer.alloc(32, Number(row.consensus_timestamp % 251n));
  const result = {
    function_parameters: Buffer.from('0102', 'hex'),
    gas_limit: 100_000,
    gas_used: 50_000,
    amount: 0,
    call_result: Buffer.from('aa', 'hex'),
    created_contract_ids: [],
    error_message: '',
    sender_id: row.payer_account_id,
    transaction_hash: hash,
    transaction_index: 1,
    transaction_result: 22,
    transaction_nonce: 0,
    ...row,
  };
  await insertRow(sql, 'contract_result', result);
  await insertRow(sql, 'contract_transaction_hash', {
    consensus_timestamp: row.consensus_timestamp,
    hash,
    payer_account_id: row.payer_account_id,
    entity_id: row.contract_id,
    transaction_result: result.transaction_result,
  });
  const ids = [...new Set([row.contract_id, ...involved, row.payer_account_id])];
  for (const id of ids) {
    await insertRow(sql, 'contract_transaction', {
      consensus_timestamp: row.consensus_timestamp,
      entity_id: id,
      contract_ids: ids,
      payer_account_id: row.payer_account_id,
    });
  }
}

export async function insertEthereumTransaction(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; payer_account_id: bigint } & Row,
): Promise<void> {
  await insertRow(sql, 'ethereum_transaction', {
    data: Buffer.from('00', 'hex'),
    gas_limit: 1_000_000,
    gas_price: Buffer.from('ad78ebc5ac620000', 'hex'),
    hash: Buffer.alloc(32, 7),
    max_gas_allowance: 10_000,
    nonce: 5,
    recovery_id: 1,
    signature_r: Buffer.alloc(32, 1),
    signature_s: Buffer.alloc(32, 2),
    type: 2,
    value: Buffer.from('0001a055690d9db80000', 'hex'),
    ...row,
  });
}

export async function insertContractLog(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; contract_id: bigint; index: number } & Row,
): Promise<void> {
  await insertRow(sql, 'contract_log', {
    bloom: Buffer.from('0123', 'hex'),
    data: Buffer.from('0123', 'hex'),
    payer_account_id: 2,
    transaction_hash: Buffer.alloc(32, 9),
    transaction_index: 0,
    ...row,
  });
}

/** A record file (block) spanning [consensus_start, consensus_end], as the contract tests' blocks look. */
export function insertRecordFile(
  sql: pg.Client,
  row: { consensus_start: bigint; consensus_end: bigint; index: bigint; hash: string } & Row,
): Promise<void> {
  return insertBlock(sql, { count: 1, file_hash: row.hash, sidecar_count: 0, gas_used: 400_000, ...row });
}
