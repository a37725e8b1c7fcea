import { eq } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { cryptoTransfer, entity, transaction } from './index.ts';

let testDb: TestDatabase;
let db: NodePgDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = drizzle(testDb.sql);
});

afterAll(async () => {
  await testDb?.drop();
});

describe('custom column types', () => {
  it('round-trip int8range bounds, including unbounded and empty ranges', async () => {
    const ranges = [
      { lower: 1680000000000000000n, upper: null },
      { lower: null, upper: 5n },
      { lower: -3n, upper: 9223372036854775807n },
      { lower: 0n, upper: 0n },
    ];
    for (const [i, timestampRange] of ranges.entries()) {
      await db.insert(entity).values({ id: BigInt(i), num: BigInt(i), realm: 0n, shard: 0n, timestampRange });
    }
    const stored = await db.select({ range: entity.timestampRange }).from(entity).orderBy(entity.id);
    expect(stored.map((row) => row.range)).toEqual(ranges);
  });

  it('round-trip the bigint domains at the 64-bit limits', async () => {
    const row = { entityId: 9223372036854775807n, consensusTimestamp: -9223372036854775808n, amount: -1n };
    await db.insert(cryptoTransfer).values({ ...row, payerAccountId: 2n });
    const [stored] = await db
      .select({
        entityId: cryptoTransfer.entityId,
        consensusTimestamp: cryptoTransfer.consensusTimestamp,
        amount: cryptoTransfer.amount,
      })
      .from(cryptoTransfer);
    expect(stored).toEqual(row);
  });

  it('round-trip bytea and bytea[] as bytes', async () => {
    const memo = Uint8Array.of(0, 1, 0xfe, 0xff);
    const maxCustomFees = [Uint8Array.of(1, 2), Uint8Array.of()];
    await db.insert(transaction).values({
      consensusTimestamp: 10n,
      type: 14,
      result: 22,
      payerAccountId: 2n,
      validStartNs: 9n,
      memo,
      maxCustomFees,
    });
    const [stored] = await db
      .select({ memo: transaction.memo, maxCustomFees: transaction.maxCustomFees })
      .from(transaction)
      .where(eq(transaction.consensusTimestamp, 10n));
    expect(new Uint8Array(stored?.memo ?? [])).toEqual(memo);
    expect(stored?.maxCustomFees?.map((bytes) => new Uint8Array(bytes))).toEqual(maxCustomFees);
  });
});
