import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { type Comparison, compare, whereAll } from './comparison.ts';
import { limitOf } from './limit.ts';

/** One signature of a schedule; `public_key_prefix` and `signature` are base64 as Postgres' `encode` writes it. */
export interface ScheduleSignatureJson {
  consensus_timestamp: number | bigint;
  public_key_prefix: string;
  signature: string;
  type: number | null;
}

/** A schedule with its entity columns (null when it has no entity row) and its signatures. int8 are strings. */
export interface ScheduleRow extends Record<string, unknown> {
  consensus_timestamp: string;
  creator_account_id: string;
  executed_timestamp: string | null;
  expiration_time: string | null;
  payer_account_id: string;
  schedule_id: string;
  transaction_body: Uint8Array;
  wait_for_expiry: boolean;
  has_entity: boolean;
  deleted: boolean | null;
  key: Uint8Array | null;
  memo: string | null;
  signatures: ScheduleSignatureJson[] | null;
}

/** A filter on a schedule column; a null value (an EVM address no schedule can have) matches nothing. */
export interface ScheduleCondition extends Comparison<bigint | null> {
  column: 'creator_account_id' | 'schedule_id';
}

// The reference encodes signatures with Postgres' `encode(…, 'base64')`, which wraps lines at 76 characters; the
// same function keeps the answer byte-identical.
const SIGNATURES = sql`(select json_agg(json_build_object('consensus_timestamp', ts.consensus_timestamp,
                                    'public_key_prefix', encode(ts.public_key_prefix, 'base64'),
                                    'signature', encode(ts.signature, 'base64'),
                                    'type', ts.type) order by ts.consensus_timestamp)
                         from transaction_signature ts
                        where ts.entity_id = s.schedule_id)`;

const SELECT = sql`s.consensus_timestamp, s.creator_account_id, s.executed_timestamp, s.expiration_time,
       s.payer_account_id, s.schedule_id, s.transaction_body, s.wait_for_expiry,
       e.id is not null as has_entity, e.deleted, e.key, e.memo, ${SIGNATURES} as signatures`;

export async function scheduleById(db: Database, scheduleId: bigint): Promise<ScheduleRow | undefined> {
  const rows = await db.rows<ScheduleRow>(sql`
    select ${SELECT}
      from schedule s
      left join entity e on e.id = s.schedule_id
     where s.schedule_id = ${scheduleId}`);
  return rows[0];
}

/** Schedules matching every condition, by schedule id in `order`, at most `limit`: one statement. */
export function schedules(
  db: Database,
  query: { conditions: readonly ScheduleCondition[]; order: 'asc' | 'desc'; limit: number },
): Promise<ScheduleRow[]> {
  const where: SQL[] = query.conditions.map((condition) => compare(sql.raw(`s.${condition.column}`), condition));
  const order = sql.raw(query.order);
  return db.rows<ScheduleRow>(sql`
    select ${SELECT}
      from (select *
              from schedule s
             ${whereAll(where)}
             order by s.schedule_id ${order}
             limit ${limitOf(query.limit)}) s
      left join entity e on e.id = s.schedule_id
     order by s.schedule_id ${order}`);
}
