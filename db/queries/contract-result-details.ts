import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { hexBytea } from './bytea.ts';
import { COMMITTED_END } from './committed-end.ts';
import {
  type BlockFields,
  type ContractResultRow,
  ETHEREUM_COLUMNS,
  type EthereumTransactionFields,
  RESULT_COLUMNS,
} from './contract-results.ts';
import { limitOf } from './limit.ts';

/** A contract transaction as the single-result routes name it. */
export type ContractTransactionTarget =
  /** `/contracts/{id}/results/{timestamp}`: the contract's part in the transaction at that timestamp. */
  | { kind: 'contract'; contractId: bigint; timestamp: bigint }
  /** A 32-byte Ethereum hash (or Hedera hash prefix): its successful, else latest, transaction. */
  | { kind: 'hash'; hash: string }
  /** A transaction id (payer and valid start) and nonce: its successful, else latest, transaction. */
  | { kind: 'transaction'; payer: bigint; validStartNs: bigint; maxConsensusNs: bigint; nonce: number };

const SUCCESS = 22;
/** Nums up to 1000 are system files: call data is never stored in them. */
const NUM_MASK = 274877906943n;
const MAX_SYSTEM_FILE_NUM = 1000n;

/**
 * The consensus timestamp and entity (contract or payer) that a target names: `contract_transaction_hash` by hash,
 * the primary key by transaction id (bounded by the consensus window after the valid start).
 */
function targetQuery(target: ContractTransactionTarget): SQL {
  switch (target.kind) {
    case 'contract':
      return sql`select ${target.timestamp}::bigint as consensus_timestamp, ${target.contractId}::bigint as entity_id,
                        null::bigint as payer_account_id, null::integer as transaction_result`;
    case 'hash':
      return sql`select consensus_timestamp, entity_id, payer_account_id, transaction_result
                   from contract_transaction_hash
                  where hash = ${hexBytea(target.hash)}
                  order by (transaction_result = ${SUCCESS}) desc, consensus_timestamp desc
                  limit 1`;
    case 'transaction':
      return sql`select consensus_timestamp, payer_account_id as entity_id, payer_account_id,
                        result as transaction_result
                   from transaction
                  where payer_account_id = ${target.payer}
                    and consensus_timestamp >= ${target.validStartNs} and consensus_timestamp <= ${target.maxConsensusNs}
                    and valid_start_ns = ${target.validStartNs}
                    and nonce = ${target.nonce}
                  order by (result = ${SUCCESS}) desc, consensus_timestamp desc
                  limit 1`;
  }
}

/** A log of a contract result, hex-encoded by SQL. */
export interface ResultLogJson {
  bloom: string;
  contract_id: bigint | number;
  data: string;
  index: number;
  topic0: string | null;
  topic1: string | null;
  topic2: string | null;
  topic3: string | null;
  /** The contract entity's EVM address; null when it has none. */
  evm_address: string | null;
}

/** A storage change of a contract result, hex-encoded by SQL. */
export interface StateChangeJson {
  contract_id: bigint | number;
  slot: string;
  value_read: string;
  value_written: string | null;
  /** Empty when the contract has no EVM address. */
  evm_address: string;
}

export type ContractResultDetailRow = Partial<ContractResultRow> &
  EthereumTransactionFields &
  BlockFields & {
    ct_timestamp: string;
    /** Whether the transaction has a contract result, and an Ethereum transaction. */
    cr_found: boolean;
    et_found: boolean;
    logs: ResultLogJson[];
    state_changes: StateChangeJson[];
    /** The current contents of the file holding the call data, when the result's parameters must come from it. */
    call_data_file: Uint8Array | null;
    /** Whether `call_data_file` is read (the file's current contents: they may still change). */
    reads_call_data_file: boolean;
    /** The result code of the transaction the target picked (null for a contract and timestamp). */
    target_result: number | null;
    /** `COMMITTED_END` of the statement. */
    committed_end: string | null;
  };

/**
 * Everything the single contract result routes show, in one statement: the contract transaction (undefined when
 * there is none), its contract result among the contracts involved, the Ethereum transaction, the block (the first
 * record file closing at or after it), its logs and state changes. `stateContractId` is the contract whose state
 * changes are shown even when they are migrations (the `/contracts/{id}/results/{timestamp}` route).
 */
export async function contractResultDetails(
  db: Database,
  target: ContractTransactionTarget,
): Promise<ContractResultDetailRow | undefined> {
  const stateContractId = target.kind === 'contract' ? target.contractId : undefined;
  const involved = (column: string) =>
    sql`(cardinality(ct.contract_ids) = 0 or ${sql.raw(column)} = any(ct.contract_ids))`;
  const stateCondition =
    stateContractId === undefined || stateContractId === 0n
      ? sql`${involved('csc.contract_id')} and csc.migration is false`
      : sql`(csc.contract_id = ${stateContractId} or (${involved('csc.contract_id')} and csc.migration is false))`;
  const rows = await db.rows<ContractResultDetailRow>(sql`
    with target as (${targetQuery(target)}),
    ct as (
      select c.consensus_timestamp, c.payer_account_id, c.contract_ids, t.transaction_result
        from contract_transaction c
        join target t on c.consensus_timestamp = t.consensus_timestamp and c.entity_id = t.entity_id
       limit 1)
    select ct.consensus_timestamp as ct_timestamp, ct.transaction_result as target_result,
           ${COMMITTED_END} as committed_end, r.*, r.consensus_timestamp is not null as cr_found,
           et.et_timestamp is not null as et_found, et.*,
           rf.hash as rf_hash, rf.index as rf_index, rf.gas_used as rf_gas_used,
           (select coalesce(json_agg(json_build_object(
                     'bloom', encode(cl.bloom, 'hex'), 'contract_id', cl.contract_id, 'data', encode(cl.data, 'hex'),
                     'index', cl.index, 'topic0', encode(cl.topic0, 'hex'), 'topic1', encode(cl.topic1, 'hex'),
                     'topic2', encode(cl.topic2, 'hex'), 'topic3', encode(cl.topic3, 'hex'),
                     'evm_address', encode(le.evm_address, 'hex')) order by cl.index), '[]')
              from contract_log cl
              left join entity le on le.id = cl.contract_id
             where cl.consensus_timestamp = ct.consensus_timestamp and ${involved('cl.contract_id')}) as logs,
           (select coalesce(json_agg(json_build_object(
                     'contract_id', csc.contract_id, 'slot', encode(csc.slot, 'hex'),
                     'value_read', encode(csc.value_read, 'hex'), 'value_written', encode(csc.value_written, 'hex'),
                     'evm_address', encode(coalesce(se.evm_address, ''::bytea), 'hex'))
                     order by csc.contract_id, csc.slot), '[]')
              from contract_state_change csc
              left join entity se on se.id = csc.contract_id
             where csc.consensus_timestamp = ct.consensus_timestamp and ${stateCondition}) as state_changes,
           coalesce((et.et_call_data is null or length(et.et_call_data) = 0)
                    and length(r.function_parameters) = 0
                    and (et.et_call_data_id & ${NUM_MASK}) > ${MAX_SYSTEM_FILE_NUM}, false) as reads_call_data_file,
           case when (et.et_call_data is null or length(et.et_call_data) = 0)
                 and length(r.function_parameters) = 0
                 and (et.et_call_data_id & ${NUM_MASK}) > ${MAX_SYSTEM_FILE_NUM} then
             (select string_agg(f.file_data, ''::bytea order by f.consensus_timestamp)
                from file_data f
               where f.entity_id = et.et_call_data_id
                 and f.transaction_type in (16, 17, 19)
                 and f.consensus_timestamp >= (select max(l.consensus_timestamp) from file_data l
                                                where l.entity_id = et.et_call_data_id and l.transaction_type in (17, 19)))
           end as call_data_file
      from ct
      left join lateral (
        select ${RESULT_COLUMNS}
          from contract_result cr
          left join entity e on e.id = cr.contract_id
         where cr.consensus_timestamp = ct.consensus_timestamp and ${involved('cr.contract_id')}
         limit 1) r on true
      left join lateral (
        select et.consensus_timestamp as et_timestamp, ${ETHEREUM_COLUMNS}, et.gas_limit as et_gas_limit,
               et.call_data as et_call_data, et.call_data_id as et_call_data_id
          from ethereum_transaction et
          join transaction tx on tx.consensus_timestamp = et.consensus_timestamp
                             and tx.payer_account_id = et.payer_account_id
         where et.consensus_timestamp = ct.consensus_timestamp and et.payer_account_id = ct.payer_account_id
         limit 1) et on true
      left join lateral (
        select hash, index, gas_used
          from record_file
         where consensus_end >= ct.consensus_timestamp
         order by consensus_end
         limit 1) rf on true`);
  return rows[0];
}

/** A contract action (`contract_action`). int8 columns are strings. */
export interface ContractActionRow extends Record<string, unknown> {
  call_depth: number;
  call_operation_type: number | null;
  call_type: number | null;
  caller: string | null;
  caller_type: string | null;
  consensus_timestamp: string;
  gas: string;
  gas_used: string;
  index: number;
  input: Uint8Array | null;
  recipient_account: string | null;
  recipient_address: Uint8Array | null;
  recipient_contract: string | null;
  result_data: Uint8Array | null;
  result_data_type: number;
  value: string;
}

export interface ContractActionsQuery {
  /** Numeric comparisons on the action index. */
  indexes: readonly { operator: 'eq' | 'lt' | 'lte' | 'gt' | 'gte'; value: number }[];
  order: 'asc' | 'desc';
  limit: number;
}

const INDEX_OPERATORS = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/**
 * The actions of the transaction a hash or transaction id names (its payer: the transaction id's, else the hash
 * row's), in index order. Undefined when the transaction is unknown; one statement on the primary key.
 */
export async function contractActions(
  db: Database,
  target: Exclude<ContractTransactionTarget, { kind: 'contract' }>,
  query: ContractActionsQuery,
): Promise<{ rows: ContractActionRow[]; target: TargetFields } | undefined> {
  const conditions = query.indexes.map(
    (c) => sql` and ca.index ${sql.raw(INDEX_OPERATORS[c.operator])} ${c.value}::numeric`,
  );
  const rows = await db.rows<ContractActionRow & TargetFields & { target_found: boolean }>(sql`
    with t as (${targetQuery(target)})
    select true as target_found, t.transaction_result as target_result, ${COMMITTED_END} as committed_end, ca.*
      from t
      left join lateral (
        select call_depth, call_operation_type, call_type, caller, caller_type, consensus_timestamp, gas, gas_used,
               index, input, recipient_account, recipient_address, recipient_contract, result_data, result_data_type,
               value
          from contract_action ca
         where ca.consensus_timestamp = t.consensus_timestamp and ca.payer_account_id = t.payer_account_id
               ${sql.join(conditions, sql``)}
         order by ca.index ${sql.raw(query.order)}
         limit ${limitOf(query.limit)}) ca on true`);
  const first = rows[0];
  if (!first) return undefined;
  return {
    rows: rows.filter((row) => row.consensus_timestamp !== null),
    target: { target_result: first.target_result, committed_end: first.committed_end },
  };
}

/** What a statement says of the transaction its target picked, for the routes' final answers. */
export interface TargetFields {
  target_result: number | null;
  committed_end: string | null;
}
