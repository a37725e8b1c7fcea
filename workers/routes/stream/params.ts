import { ApiError } from '../../errors.ts';
import type { Filter, ParamParser } from '../../params/filters.ts';
import { timestampParam } from '../../params/timestamp.ts';
import { type Position, through } from '../../stream/position.ts';
import { indexParam, topicParam } from '../contracts/params.ts';

/** Topic values one logs stream may filter on, in all: a socket's state must stay small (it outlives hibernation). */
export const MAX_TOPIC_VALUES = 16;

/** The resume point: `timestamp=gt:<t>` (after t) or `gte:<t>`, at most once; only `gt` and `gte`. */
export const resumeTimestampParam: ParamParser<bigint> = (value, operator) =>
  operator === 'gt' || operator === 'gte' ? timestampParam(value, operator) : undefined;

/** A log's index to resume after, within the `timestamp=gte:` it is given with: `index=gt:<i>`. */
export const resumeIndexParam: ParamParser<number> = (value, operator) =>
  operator === 'gt' ? indexParam(value, operator) : undefined;

export const TOPIC_PARAMS = { topic0: topicParam, topic1: topicParam, topic2: topicParam, topic3: topicParam };

/**
 * Where a stream resumes, from its filters: after the `timestamp` (`gt`) or from it (`gte`); with `index=gt:<i>`
 * (logs, which share timestamps), after that log of the `gte` timestamp. Undefined: from the newest record file on.
 */
export function resumePosition(filters: readonly Filter<string, unknown>[]): Position | undefined {
  const timestamps = filters.filter((f): f is Filter<'timestamp', bigint> => f.key === 'timestamp');
  const indexes = filters.filter((f): f is Filter<'index', number> => f.key === 'index');
  if (timestamps.length > 1) throw ApiError.invalidParams('timestamp');
  const [timestamp] = timestamps;
  if (indexes.length > 1 || (indexes.length === 1 && timestamp?.operator !== 'gte')) {
    throw ApiError.invalidParams('index');
  }
  if (!timestamp) return undefined;
  const [index] = indexes;
  if (index) return { timestamp: timestamp.value, index: index.value };
  if (timestamp.operator === 'gt') return through(timestamp.value);
  return through(timestamp.value > 0n ? timestamp.value - 1n : 0n);
}

/** The topic filters of a logs stream, per position, as lowercase hex without leading zero bytes. */
export function topicFilters(filters: readonly Filter<string, unknown>[]): string[][] {
  const topics: string[][] = [[], [], [], []];
  let count = 0;
  for (const { key, value } of filters) {
    const position = ['topic0', 'topic1', 'topic2', 'topic3'].indexOf(key);
    if (position < 0) continue;
    count += 1;
    if (count > MAX_TOPIC_VALUES) throw ApiError.invalidParams(key);
    topics[position]?.push(String(value).toLowerCase());
  }
  return topics;
}
