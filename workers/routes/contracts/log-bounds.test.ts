import { describe, expect, it } from 'vitest';
import { addFilter, type Bound, logPageParts, newBound, validateLogBounds } from './log-bounds.ts';

function bounds(timestamp: [string, bigint][], index: [string, number][]): [Bound, Bound] {
  const primary = newBound('timestamp');
  const secondary = newBound('index');
  for (const [op, v] of timestamp) addFilter(primary, op as 'eq', v);
  for (const [op, v] of index) addFilter(secondary, op as 'eq', v);
  return [primary, secondary];
}

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
};

describe('log bounds', () => {
  it('refuses repeated and ne filters with the reference messages', () => {
    const bound = newBound('timestamp');
    addFilter(bound, 'gt', 1n);
    expect(message(() => addFilter(bound, 'gte', 2n))).toBe('Only one gt/gte operator is allowed for timestamp');
    expect(message(() => addFilter(bound, 'ne', 2n))).toBe('Not equal (ne) operator is not supported for timestamp');
  });

  it('checks how index and timestamp combine', () => {
    expect(message(() => validateLogBounds(...bounds([['gte', 1n]], [['eq', 1]])))).toBe(
      'timestamp must have eq operator',
    );
    expect(message(() => validateLogBounds(...bounds([], [['gt', 1]])))).toBe(
      'index without a timestamp parameter filter',
    );
    expect(message(() => validateLogBounds(...bounds([['gt', 1n]], [['gt', 1]])))).toBe(
      'timestamp must have gte or eq operator',
    );
    expect(message(() => validateLogBounds(...bounds([['gte', 1n]], [['lt', 1]])))).toBe(
      'timestamp must have lte or eq operator',
    );
    expect(
      message(() =>
        validateLogBounds(
          ...bounds(
            [
              ['eq', 1n],
              ['lt', 5n],
            ],
            [],
          ),
        ),
      ),
    ).toBe("Can't support both range and equal for timestamp");
    expect(
      message(() =>
        validateLogBounds(
          ...bounds(
            [
              ['gte', 1n],
              ['lte', 5n],
            ],
            [
              ['gt', 0],
              ['lte', 3],
            ],
          ),
        ),
      ),
    ).toBe(undefined);
  });

  it('splits a timestamp and index range into the first, inner and last timestamps', () => {
    const parts = logPageParts(
      ...bounds(
        [
          ['gte', 10n],
          ['lte', 20n],
        ],
        [
          ['gt', 1],
          ['lte', 3],
        ],
      ),
    );
    expect(parts).toEqual([
      [
        { column: 'consensus_timestamp', operator: 'eq', value: 10n },
        { column: 'index', operator: 'gt', value: 1 },
      ],
      [
        { column: 'consensus_timestamp', operator: 'gt', value: 10n },
        { column: 'consensus_timestamp', operator: 'lt', value: 20n },
      ],
      [
        { column: 'consensus_timestamp', operator: 'eq', value: 20n },
        { column: 'index', operator: 'lte', value: 3 },
      ],
    ]);
  });

  it('keeps a single part without an index range', () => {
    expect(logPageParts(...bounds([['eq', 10n]], [['eq', 2]]))).toEqual([
      [
        { column: 'consensus_timestamp', operator: 'eq', value: 10n },
        { column: 'index', operator: 'eq', value: 2 },
      ],
    ]);
    expect(logPageParts(...bounds([], []))).toEqual([]);
  });
});
