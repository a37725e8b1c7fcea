import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { snapshotPartitionBounds } from './accounts.ts';

const dialect = new PgDialect();

describe('snapshotPartitionBounds', () => {
  it('bounds the rows by the UTC month start of the search floor and the search ceiling', () => {
    // 2025-01-02T00:00:04.975907475Z: its month starts at 2025-01-01T00:00:00Z.
    const { sql, params } = dialect.sqlToQuery(
      snapshotPartitionBounds('tb', { lower: 1735776004975907475n, upper: 1735779604975907475n, ne: [] }),
    );
    expect(sql).toBe('and tb.consensus_timestamp >= $1 and tb.consensus_timestamp <= $2');
    expect(params).toEqual([1735689600000000000n, 1735779604975907475n]);
  });

  it('starts at the epoch for a search from 0', () => {
    const { params } = dialect.sqlToQuery(snapshotPartitionBounds('ab', { lower: 0n, upper: 10n, ne: [] }));
    expect(params).toEqual([0n, 10n]);
  });
});
