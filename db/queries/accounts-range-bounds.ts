import { type SQL, sql } from 'drizzle-orm';

/**
 * Multi-column paging filters as the reference's Java process builds them (its `Bound` and the repositories'
 * bound conditions), for the routes it serves under `/accounts/{id}` (NFT allowances, airdrops). Kept close to
 * the original, mutations included: adjusting a bound changes it for the conditions built after, and one bound
 * object may appear twice in a list.
 */

export type RangeOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'ne' | 'unknown';

export interface RangeParam {
  operator: RangeOperator;
  value: bigint;
}

/** A refused combination of parameters; the route answers it with a 400 carrying the message. */
export class RangeBoundError extends Error {}

const wrapLong = (value: bigint): bigint => BigInt.asIntN(64, value);
const LONG_MAX = 2n ** 63n - 1n;
const SQL_OPERATORS: Record<Exclude<RangeOperator, 'unknown'>, string> = {
  eq: '=',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  ne: '<>',
};

const hasLowerBound = (p: RangeParam) => p.operator === 'gt' || p.operator === 'gte' || p.operator === 'eq';
const hasUpperBound = (p: RangeParam) => p.operator === 'lt' || p.operator === 'lte';
const isInclusive = (operator: RangeOperator) => operator === 'eq' || operator === 'lte' || operator === 'gte';

export class RangeBound {
  lower: RangeParam | undefined;
  upper: RangeParam | undefined;
  /** The parameter name its messages use. */
  readonly name: string;
  /** The column its conditions compare (none for the empty bound). */
  readonly column: string | undefined;
  private readonly cardinality = new Map<RangeOperator, number>();

  /**
   * The last lower-side (`eq`, `gt`, `gte`) and upper-side parameter win; every operator is counted. A primary
   * sort field refuses a range whose adjusted lower end is above its upper end.
   */
  constructor(params: readonly RangeParam[], primarySortField: boolean, name: string, column: string | undefined) {
    this.name = name;
    this.column = column;
    for (const param of params) {
      if (hasLowerBound(param)) this.lower = param;
      else if (hasUpperBound(param)) this.upper = param;
      this.cardinality.set(param.operator, (this.cardinality.get(param.operator) ?? 0) + 1);
    }
    if (params.length > 0 && primarySortField && this.adjustedLowerValue() > this.adjustedUpperValue()) {
      throw new RangeBoundError(`Invalid range provided for ${name}`);
    }
  }

  adjustedUpperValue(): bigint {
    if (!this.upper) return LONG_MAX;
    return this.upper.operator === 'lt' ? wrapLong(this.upper.value - 1n) : this.upper.value;
  }

  adjustedLowerValue(): bigint {
    if (!this.lower) return 0n;
    return this.lower.operator === 'gt' ? wrapLong(this.lower.value + 1n) : this.lower.value;
  }

  /** A range of one value becomes `eq` of it (and loses its upper side). */
  adjustLowerRange(): RangeParam | undefined {
    if (this.hasEqualBounds()) {
      this.lower = { operator: 'eq', value: this.adjustedLowerValue() };
      this.upper = undefined;
    }
    return this.lower;
  }

  /** An `eq` also bounds the upper side. */
  adjustUpperRange(): void {
    if (!this.isEmpty() && this.lower?.operator === 'eq') this.upper = this.lower;
  }

  inclusiveValue(upper: boolean): bigint {
    const param = (upper ? this.upper : this.lower) as RangeParam;
    if (param.operator === 'gt') return wrapLong(param.value + 1n);
    if (param.operator === 'lt') return wrapLong(param.value - 1n);
    return param.value;
  }

  count(...operators: RangeOperator[]): number {
    return operators.reduce((sum, operator) => sum + (this.cardinality.get(operator) ?? 0), 0);
  }

  isEmpty(): boolean {
    return this.lower === undefined && this.upper === undefined;
  }

  hasLowerAndUpper(): boolean {
    return this.lower !== undefined && this.upper !== undefined;
  }

  hasEqualBounds(): boolean {
    return this.hasLowerAndUpper() && this.adjustedLowerValue() === this.adjustedUpperValue();
  }

  toLower(): RangeBound {
    return this.single(this.lower);
  }

  toUpper(): RangeBound {
    return this.single(this.upper);
  }

  private single(param: RangeParam | undefined): RangeBound {
    return param ? new RangeBound([{ ...param }], false, this.name, this.column) : EMPTY_BOUND;
  }

  verifyUnsupported(operator: RangeOperator): void {
    if (this.count(operator) > 0) {
      throw new RangeBoundError(`Unsupported range operator ${operator} for ${this.name}`);
    }
  }

  verifySingleOccurrence(): void {
    for (const operators of [['eq'], ['gt', 'gte'], ['lt', 'lte']] as RangeOperator[][]) {
      if (this.count(...operators) > 1) {
        throw new RangeBoundError(
          `Only one range operator from [${operators.join(', ')}] is allowed for the given parameter for ${this.name}`,
        );
      }
    }
  }

  verifyEqualOrRange(): void {
    if (this.count('eq') === 1 && (this.count('gt', 'gte') !== 0 || this.count('lt', 'lte') !== 0)) {
      throw new RangeBoundError(`Can't support both range and equal for ${this.name}`);
    }
  }
}

const EMPTY_BOUND = new RangeBound([], false, '', undefined);

/** `null` is "no condition": it vanishes in `and` and `or`. */
type Condition = SQL | null;

const and = (a: Condition, b: Condition): Condition => (a === null ? b : b === null ? a : sql`(${a} and ${b})`);
const or = (a: Condition, b: Condition): Condition => (a === null ? b : b === null ? a : sql`(${a} or ${b})`);

function compare(column: string | undefined, operator: RangeOperator, value: bigint): Condition {
  if (column === undefined || operator === 'unknown') return null;
  return sql`${sql.raw(column)} ${sql.raw(SQL_OPERATORS[operator])} ${value}`;
}

const paramCondition = (param: RangeParam | undefined, column: string | undefined): Condition =>
  param ? compare(column, param.operator, param.value) : null;

const boundCondition = (bound: RangeBound): Condition =>
  and(paramCondition(bound.lower, bound.column), paramCondition(bound.upper, bound.column));

/**
 * The condition that pages over several sort columns at once: rows at the primary bound's lower end that pass
 * the secondary bounds' lower ends, or strictly inside the primary range, or at its upper end and before the
 * secondary upper ends (recursively for more than two). Null when nothing is filtered.
 */
export function boundConditions(bounds: readonly RangeBound[], lowerDone = false, upperDone = false): SQL | null {
  const [primary, ...secondary] = bounds;
  if (!primary) return null;
  if (secondary.length === 0) return boundCondition(primary);
  if (!lowerDone) for (const bound of secondary) bound.adjustUpperRange();
  // the lower part is built first: it may rewrite the primary bound the others read
  const lower = outerCondition(primary, secondary, false, lowerDone);
  const middle = middleCondition(primary, secondary);
  const upper = outerCondition(primary, secondary, true, upperDone);
  return or(or(lower, middle), upper);
}

function outerCondition(primary: RangeBound, secondary: RangeBound[], isUpper: boolean, done: boolean): Condition {
  const param = isUpper ? primary.upper : primary.adjustLowerRange();
  if (!param || param.operator === 'unknown' || param.operator === 'eq') return null;
  const edge = compare(primary.column, 'eq', primary.inclusiveValue(isUpper));
  const rest = done ? secondary : secondary.map((bound) => (isUpper ? bound.toUpper() : bound.toLower()));
  return and(edge, boundConditions(rest, true, isUpper));
}

function middleCondition(primary: RangeBound, secondary: RangeBound[]): Condition {
  const { lower, upper, column } = primary;
  const inside = (param: RangeParam | undefined, inclusiveOperator: RangeOperator): Condition => {
    if (!param || param.operator === 'unknown') return null;
    if (param.operator !== 'eq' && isInclusive(param.operator)) return compare(column, inclusiveOperator, param.value);
    return paramCondition(param, column);
  };
  let condition = and(inside(lower, 'gt'), inside(upper, 'lt'));
  for (const bound of secondary) {
    if ([lower, upper, bound.upper, bound.lower].some((param) => param?.operator === 'eq')) {
      condition = and(condition, boundCondition(bound));
    }
  }
  return condition;
}
