/**
 * A ConsensusTopicQuery as the reference's TopicMessageFilter: the start time defaults to now; a timestamp too
 * large for int64 nanoseconds is the largest one; the checks and their messages are the reference's (all of the
 * failed constraints in one INVALID_ARGUMENT, as its bean validation reports them).
 */
import { entityIdOf, javaLong } from '../entity-id.ts';
import { invalidArgument } from '../status.ts';

const LONG_MAX = (1n << 63n) - 1n;
const LONG_MIN = -(1n << 63n);
/** Seconds from which the reference takes a timestamp for the largest one without converting it. */
const MAX_SECONDS = 9_223_372_035n;

export interface TopicFilter {
  readonly topicId: bigint;
  /** Inclusive, nanoseconds. */
  readonly startTime: bigint;
  /** Exclusive, nanoseconds; none: the subscription never ends by time. */
  readonly endTime: bigint | undefined;
  /** 0: no limit. */
  readonly limit: bigint;
}

interface Timestamp {
  readonly seconds?: string;
  readonly nanos?: number;
}

/** The query as protobufjs gives it with `longs: String` and no defaults (absent fields are absent). */
export interface TopicQueryObject {
  readonly topicID?: { shardNum?: string; realmNum?: string; topicNum?: string };
  readonly consensusStartTime?: Timestamp;
  readonly consensusEndTime?: Timestamp;
  readonly limit?: string;
}

function nanosOf(timestamp: Timestamp): bigint {
  const seconds = BigInt(timestamp.seconds ?? '0');
  if (seconds >= MAX_SECONDS) return LONG_MAX;
  const nanos = seconds * 1_000_000_000n + BigInt(timestamp.nanos ?? 0);
  if (nanos > LONG_MAX) return LONG_MAX;
  return nanos < LONG_MIN ? LONG_MIN : nanos;
}

/** The filter of `query` at `nowNs`, or an INVALID_ARGUMENT error. */
export function toTopicFilter(query: TopicQueryObject, nowNs: bigint): TopicFilter {
  const topicId = query.topicID ? entityIdOf(query.topicID, 'topicNum') : undefined;
  const limit = javaLong(query.limit);
  const startTime = query.consensusStartTime ? nanosOf(query.consensusStartTime) : nowNs;
  const endTime = query.consensusEndTime ? nanosOf(query.consensusEndTime) : undefined;
  const violations: string[] = [];
  if (limit < 0n) violations.push('subscribeTopic.filter.limit: must be greater than or equal to 0');
  if (startTime < 0n) violations.push('subscribeTopic.filter.startTime: must be greater than or equal to 0');
  if (topicId === undefined) violations.push('subscribeTopic.filter.topicId: must not be null');
  if (endTime !== undefined && endTime <= startTime) {
    violations.push('subscribeTopic.filter.validEndTime: End time must be after start time');
  }
  if (startTime > nowNs) {
    violations.push('subscribeTopic.filter.validStartTime: Start time must be before the current time');
  }
  if (violations.length > 0 || topicId === undefined) throw invalidArgument(violations.join(', '));
  return { topicId, startTime, endTime, limit };
}
