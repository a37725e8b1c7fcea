import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

export interface ScheduleRow extends Record<string, unknown> {
  executed_timestamp: string | null;
  expiration_time: string | null;
  payer_account_id: string;
  wait_for_expiry: boolean;
  transaction_body: Uint8Array;
}

export interface ScheduleSignatureRow extends Record<string, unknown> {
  public_key_prefix: Uint8Array;
  /** The SignaturePair case: 3 ED25519, 6 ECDSA secp256k1. */
  type: number | null;
}

/** The schedule with id `scheduleId` created by `at` (now when undefined); undefined when there is none. */
export async function scheduleAt(
  db: Database,
  scheduleId: bigint,
  at: bigint | undefined,
): Promise<ScheduleRow | undefined> {
  const created = at === undefined ? sql`` : sql` and consensus_timestamp <= ${at}`;
  const [row] = await db.rows<ScheduleRow>(sql`
    select executed_timestamp, expiration_time, payer_account_id, wait_for_expiry, transaction_body
      from schedule
     where schedule_id = ${scheduleId}${created}`);
  return row;
}

/** The public keys that signed the schedule's ScheduleCreate and ScheduleSigns by `at` (now when undefined). */
export function scheduleSignatures(
  db: Database,
  scheduleId: bigint,
  at: bigint | undefined,
): Promise<ScheduleSignatureRow[]> {
  const signed = at === undefined ? sql`` : sql` and consensus_timestamp <= ${at}`;
  return db.rows<ScheduleSignatureRow>(sql`
    select public_key_prefix, type
      from transaction_signature
     where entity_id = ${scheduleId}${signed}`);
}

export interface ExpiringScheduleRow extends Record<string, unknown> {
  schedule_id: string;
  transaction_body: Uint8Array;
  /** The schedule's admin key and memo (a schedule's entity never changes them). */
  key: Uint8Array | null;
  memo: string | null;
}

/**
 * The schedules created by `at` (now when undefined) that expire at `expirationTime` (nanoseconds) with this wait
 * flag: the candidates for a schedule identical to a new one with that expiry.
 */
export function schedulesExpiringAt(
  db: Database,
  expirationTime: bigint,
  waitForExpiry: boolean,
  at: bigint | undefined,
): Promise<ExpiringScheduleRow[]> {
  const created = at === undefined ? sql`` : sql` and s.consensus_timestamp <= ${at}`;
  return db.rows<ExpiringScheduleRow>(sql`
    select s.schedule_id, s.transaction_body, e.key, e.memo
      from schedule s
      left join entity e on e.id = s.schedule_id
     where s.expiration_time = ${expirationTime} and s.wait_for_expiry = ${waitForExpiry}${created}`);
}
