import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/**
 * A topic as `GET /api/v1/topics/{id}` shows it: its `topic` row with the matching `entity` and `custom_fee` rows
 * (`has_entity` / `has_custom_fee` false when those are missing). int8 columns are strings.
 */
export interface TopicRow extends Record<string, unknown> {
  admin_key: Uint8Array | null;
  fee_exempt_key_list: Uint8Array | null;
  fee_schedule_key: Uint8Array | null;
  submit_key: Uint8Array | null;
  has_entity: boolean;
  auto_renew_account_id: string | null;
  auto_renew_period: string | null;
  created_timestamp: string | null;
  deleted: boolean | null;
  entity_id: string | null;
  memo: string | null;
  timestamp_from: string | null;
  timestamp_to: string | null;
  has_custom_fee: boolean;
  fixed_fees: FixedFeeJson[] | null;
  fee_created_timestamp: string | null;
}

/** An element of `custom_fee.fixed_fees`. */
export interface FixedFeeJson {
  all_collectors_are_exempt?: boolean;
  amount?: number | bigint;
  collector_account_id?: number | bigint;
  denominating_token_id?: number | bigint | null;
}

export async function topicById(db: Database, id: bigint): Promise<TopicRow | undefined> {
  const rows = await db.rows<TopicRow>(sql`
    select t.admin_key, t.fee_exempt_key_list, t.fee_schedule_key, t.submit_key,
           e.id is not null as has_entity, e.auto_renew_account_id, e.auto_renew_period, e.created_timestamp,
           e.deleted, e.id as entity_id, e.memo,
           lower(e.timestamp_range) as timestamp_from, upper(e.timestamp_range) as timestamp_to,
           cf.entity_id is not null as has_custom_fee, cf.fixed_fees,
           lower(cf.timestamp_range) as fee_created_timestamp
      from topic t
      left join entity e on e.id = t.id
      left join custom_fee cf on cf.entity_id = t.id
     where t.id = ${id}`);
  return rows[0];
}
