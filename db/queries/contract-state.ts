import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { hexBytea } from './bytea.ts';
import { type Comparison, compare } from './comparison.ts';
import { limitOf } from './limit.ts';

/** A storage slot of a contract and its value. int8 columns are strings. */
export interface ContractStateRow extends Record<string, unknown> {
  contract_id: string;
  modified_timestamp: string;
  slot: Uint8Array;
  value: Uint8Array | null;
  /** The contract's EVM address; empty or null when it has none. */
  evm_address: Uint8Array | null;
}

export interface ContractStateQuery {
  contractId: bigint;
  /**
   * Without timestamp comparisons: the current state (`contract_state`). With them: per slot, the latest change
   * (`contract_state_change`) that satisfies them all, its written value or else the value it read.
   */
  timestamps: readonly Comparison<bigint>[];
  /** Slots as stored, in hex digits (32 bytes in `contract_state`, without leading zero bytes in `contract_state_change`). */
  slots: readonly string[];
  slotComparisons: readonly Comparison<string>[];
  order: 'asc' | 'desc';
  limit: number;
}

/**
 * A page of a contract's storage in slot order: the primary key of `contract_state`, or
 * `contract_state_change__id_slot_timestamp` for the state as of a time.
 */
export function contractState(db: Database, query: ContractStateQuery): Promise<ContractStateRow[]> {
  const historical = query.timestamps.length > 0;
  const alias = historical ? 'csc' : 'cs';
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const conditions: SQL[] = [sql`${column('contract_id')} = ${query.contractId}`];
  for (const comparison of query.timestamps) conditions.push(compare(column('consensus_timestamp'), comparison));
  for (const { operator, value } of query.slotComparisons) {
    conditions.push(compare(column('slot'), { operator, value: hexBytea(value) }));
  }
  if (query.slots.length > 0) {
    conditions.push(sql`${column('slot')} in (${sql.join(query.slots.map(hexBytea), sql`, `)})`);
  }
  const where = sql.join(conditions, sql` and `);
  const order = sql.raw(query.order);
  if (!historical) {
    return db.rows<ContractStateRow>(sql`
      select cs.contract_id, cs.modified_timestamp, cs.slot, cs.value, coalesce(e.evm_address, ''::bytea) as evm_address
        from contract_state cs
        left join entity e on e.id = cs.contract_id
       where ${where}
       order by cs.slot ${order}
       limit ${limitOf(query.limit)}`);
  }
  return db.rows<ContractStateRow>(sql`
    select distinct on (csc.slot) csc.contract_id, csc.consensus_timestamp as modified_timestamp, csc.slot,
           coalesce(csc.value_written, csc.value_read) as value, e.evm_address
      from contract_state_change csc
      left join entity e on e.id = csc.contract_id
     where ${where}
     order by csc.slot ${order}, csc.consensus_timestamp desc
     limit ${limitOf(query.limit)}`);
}
