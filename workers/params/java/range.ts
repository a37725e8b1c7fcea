import { encodeEntityId, MAX_NUM, MAX_REALM, MAX_SHARD } from '../entity-id.ts';
import { isJavaBlank, javaSplit, parseJavaLong, wrapLong } from './numbers.ts';

/**
 * The Java process's range parameters (`node.id=gt:5`, `file.id=0.0.102`, `timestamp=lte:1.2`). A conversion
 * that fails returns undefined; the caller reports it the way its binding mechanism does.
 */

/** `unknown` is the operator of an empty value, which no filter uses. */
export type RangeOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'ne' | 'unknown';

export interface RangeParam {
  operator: RangeOperator;
  value: bigint;
}

const OPERATORS: readonly RangeOperator[] = ['eq', 'gt', 'gte', 'lt', 'lte', 'ne'];

/** An empty value (after the first one, which counts as absent): ignored by every filter. */
export const EMPTY_RANGE: RangeParam = { operator: 'unknown', value: -1n };

/** `RangeOperator.of`: one of the six operators in any letter case. */
export function rangeOperator(text: string): RangeOperator | undefined {
  if (isJavaBlank(text)) return undefined;
  const name = text.toUpperCase();
  return OPERATORS.find((operator) => operator.toUpperCase() === name);
}

export const hasLowerBound = ({ operator }: RangeParam): boolean =>
  operator === 'gt' || operator === 'gte' || operator === 'eq';

export const hasUpperBound = ({ operator }: RangeParam): boolean => operator === 'lt' || operator === 'lte';

/** The bound as an inclusive value: `gt:5` is 6, `lt:5` is 4 (with Java's wrap-around at the long limits). */
export function inclusiveValue({ operator, value }: RangeParam): bigint {
  if (operator === 'gt') return wrapLong(value + 1n);
  if (operator === 'lt') return wrapLong(value - 1n);
  return value;
}

/** `op:value` or `value` (`eq`); a second `:` is invalid, trailing ones are ignored (`5:` is `eq:5`). */
function splitOperator<V>(text: string, parse: (value: string) => V | undefined): [RangeOperator, V] | undefined {
  const parts = javaSplit(text, ':');
  if (parts.length === 1) {
    const value = parse(parts[0] as string);
    return value === undefined ? undefined : ['eq', value];
  }
  if (parts.length !== 2) return undefined;
  const operator = rangeOperator(parts[0] as string);
  const value = parse(parts[1] as string);
  return operator === undefined || value === undefined ? undefined : [operator, value];
}

/** `NumberRangeParameter`: a long >= 0 with an optional operator (`registerednode.id`, `node.id`). */
export function numberRangeParam(text: string): RangeParam | undefined {
  if (isJavaBlank(text)) return EMPTY_RANGE;
  const parsed = splitOperator(text, (value) => {
    const number = parseJavaLong(value);
    return number === undefined || number < 0n ? undefined : number;
  });
  return parsed && { operator: parsed[0], value: parsed[1] };
}

/**
 * `EntityIdRangeParameter`: `num`, `realm.num` or `shard.realm.num` (each a long >= 0, within the entity id's
 * limits) with an optional operator; the shard and realm default to the network's.
 */
export function entityIdRangeParam(text: string, network: { shard: number; realm: number }): RangeParam | undefined {
  if (isJavaBlank(text)) return { operator: 'unknown', value: 0n };
  const parsed = splitOperator(text, (value) => {
    const parts = value.split('.').map(parseJavaLong);
    if (parts.length > 3 || parts.some((part) => part === undefined || part < 0n)) return undefined;
    const [num = 0n, realm = BigInt(network.realm), shard = BigInt(network.shard)] = (parts as bigint[]).reverse();
    if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) return undefined;
    return encodeEntityId({ shard, realm, num });
  });
  return parsed && { operator: parsed[0], value: parsed[1] };
}

const TIMESTAMP = /^(?:(eq|gt|gte|lt|lte|ne):)?(\d{1,17})(?:\.(\d{1,9}))?$/i;

/**
 * `TimestampParameter`: `seconds[.nanos]` with an optional operator other than `ne`. The fraction is read as an
 * integer count of nanoseconds, so `1.5` is one second and five nanoseconds (the reference's reading).
 */
export function timestampParam(text: string): RangeParam | undefined {
  if (isJavaBlank(text)) return EMPTY_RANGE;
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const operator = (match[1]?.toLowerCase() ?? 'eq') as RangeOperator;
  if (operator === 'ne') return undefined;
  const value = BigInt(match[2] as string) * 1_000_000_000n + BigInt(match[3] ?? '0');
  return value > 2n ** 63n - 1n ? undefined : { operator, value };
}
