import type { ScheduleRow } from '../../../db/queries/schedules.ts';
import { keyObject } from '../../format/key.ts';
import { base64, entityId, timestampString } from '../../format/values.ts';

/** `transaction_signature.type` values (the HAPI SignaturePair cases) as the API names them. */
const SIGNATURE_TYPES: Readonly<Record<number, string>> = {
  2: 'CONTRACT',
  3: 'ED25519',
  4: 'RSA_3072',
  5: 'ECDSA_384',
  6: 'ECDSA_SECP256K1',
};

const signatureTypeName = (type: number | null): string =>
  (type === null ? undefined : SIGNATURE_TYPES[type]) ?? 'UNKNOWN';

/**
 * One schedule as the API's Schedule object. A schedule without an entity row has null entity fields when read by
 * id; in lists the reference merges the entity in afterwards, so `deleted` and `memo` are then absent. Keys in the
 * reference's order (not alphabetical: `deleted` second, `memo` after `expiration_time`).
 */
export function formatSchedule(row: ScheduleRow, options: { omitMissingEntity?: boolean } = {}) {
  const withEntity = !options.omitMissingEntity || row.has_entity;
  return {
    admin_key: keyObject(row.key),
    ...(withEntity ? { deleted: row.deleted } : {}),
    consensus_timestamp: timestampString(row.consensus_timestamp),
    creator_account_id: entityId(row.creator_account_id),
    executed_timestamp: timestampString(row.executed_timestamp),
    expiration_time: timestampString(row.expiration_time),
    ...(withEntity ? { memo: row.memo } : {}),
    payer_account_id: entityId(row.payer_account_id),
    schedule_id: entityId(row.schedule_id),
    signatures: (row.signatures ?? []).map((signature) => ({
      consensus_timestamp: timestampString(BigInt(signature.consensus_timestamp)),
      public_key_prefix: signature.public_key_prefix,
      signature: signature.signature,
      type: signatureTypeName(signature.type),
    })),
    transaction_body: base64(row.transaction_body),
    wait_for_expiry: row.wait_for_expiry,
  };
}

const NANOS_PER_SECOND = 1_000_000_000n;
/** A schedule with no expiration time expires 30 minutes after creation; one more minute of slack. */
const IMPLICIT_EXPIRY_NS = 31n * 60n * NANOS_PER_SECOND;
/** Slack after an explicit expiration time. */
const EXPIRY_SLACK_NS = 60n * NANOS_PER_SECOND;

/**
 * A schedule that executed, was deleted or has expired no longer changes: cached for an hour. Otherwise the route's
 * default applies.
 */
export function isScheduleFinal(row: ScheduleRow, nowNs: bigint): boolean {
  if (row.executed_timestamp !== null || row.deleted) return true;
  if (row.expiration_time === null) return nowNs >= BigInt(row.consensus_timestamp) + IMPLICIT_EXPIRY_NS;
  return nowNs >= BigInt(row.expiration_time) + EXPIRY_SLACK_NS;
}
