import { Hono } from 'hono';
import { type FixedFeeJson, type TopicRow, topicById } from '../../../db/queries/topics.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { keyObject } from '../../format/key.ts';
import { fields } from '../../format/protobuf-reader.ts';
import { entityId, timestampString } from '../../format/values.ts';
import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from '../../params/entity-id.ts';
import { jsonResponse } from '../../respond.ts';

const TOPIC_MAX_AGE = 5;

// The reference serves this route from its Java process, whose error bodies carry the HTTP reason phrase as the
// message and the cause as `detail`.
const javaNotFound = (detail: string) => new ApiError(404, { message: 'Not Found', detail });
const javaBadRequest = (detail: string) => new ApiError(400, { message: 'Bad Request', detail });

const ENTITY_ID = /^(?:(\d{1,4})\.)?(?:(\d{1,5})\.)?(\d{1,12})$/;

/**
 * The Java process's topic id: `num`, `realm.num` or `shard.realm.num` (no encoded id, no EVM address), with the
 * configured shard and realm filling in; undefined when it does not convert.
 */
export function parseTopicId(text: string, common: { shard: number; realm: number }): bigint | undefined {
  const match = ENTITY_ID.exec(text);
  if (!match?.[3]) return undefined;
  let shard = BigInt(common.shard);
  let realm = BigInt(common.realm);
  if (match[1] !== undefined && match[2] !== undefined) {
    shard = BigInt(match[1]);
    realm = BigInt(match[2]);
  } else if (match[1] !== undefined || match[2] !== undefined) {
    realm = BigInt(match[1] ?? match[2] ?? '0');
  }
  const num = BigInt(match[3]);
  if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) return undefined;
  return encodeEntityId({ shard, realm, num });
}

/** `GET /api/v1/topics/{topicId}`: the topic, its entity and its custom fees, all three required. */
export const topicRoutes = new Hono<AppEnv>().get('/:topicId', async (c) => {
  const id = parseTopicId(c.req.param('topicId'), c.get('config').common);
  if (id === undefined) throw javaBadRequest("Failed to convert 'id'");
  const row = await topicById(c.get('db'), id);
  if (!row) throw javaNotFound('Topic not found');
  if (!row.has_entity) throw javaNotFound('Entity not found');
  if (!row.has_custom_fee) throw javaNotFound('Custom fee for entity not found');
  return jsonResponse(formatTopic(row), { maxAge: TOPIC_MAX_AGE });
});

export function formatTopic(row: TopicRow) {
  return {
    admin_key: keyObject(row.admin_key),
    auto_renew_account: entityId(row.auto_renew_account_id),
    auto_renew_period: nullableBigInt(row.auto_renew_period),
    created_timestamp: timestampString(row.created_timestamp),
    custom_fees: {
      created_timestamp: timestampString(row.fee_created_timestamp),
      fixed_fees: (row.fixed_fees ?? []).map(formatFixedFee),
    },
    deleted: row.deleted,
    fee_exempt_key_list: keyList(row.fee_exempt_key_list),
    fee_schedule_key: keyObject(row.fee_schedule_key),
    memo: row.memo,
    submit_key: keyObject(row.submit_key),
    timestamp: { from: timestampString(row.timestamp_from), to: timestampString(row.timestamp_to) },
    topic_id: entityId(row.entity_id),
  };
}

const nullableBigInt = (value: string | number | bigint | null | undefined): bigint | null =>
  value === null || value === undefined ? null : BigInt(value);

function formatFixedFee(fee: FixedFeeJson) {
  return {
    amount: nullableBigInt(fee.amount) ?? 0n,
    collector_account_id: entityId(fee.collector_account_id),
    denominating_token_id: entityId(fee.denominating_token_id),
  };
}

/** A serialized HAPI KeyList (repeated Key keys = 1): each key as a key object. */
function keyList(bytes: Uint8Array | null) {
  if (!bytes || bytes.length === 0) return [];
  const keys = [];
  for (const field of fields(bytes)) if (field.number === 1 && 'bytes' in field) keys.push(keyObject(field.bytes));
  return keys;
}
