import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('network_freeze', () => {
  it("takes a freeze without start_time from the body's hours and minutes of the consensus day, ending the next day", async () => {
    const day = 18_500 * 86_400;
    await ingestItems(db.sql, [
      { at: day + 3600, body: { freeze: { startHour: 22, startMin: 30, endHour: 1, endMin: 15 } } },
    ]);
    const ns = (seconds: number) => (BigInt(seconds) * 1_000_000_000n).toString();
    expect(await rowsOf(db.sql, 'select start_time::text, end_time::text, file_id from network_freeze')).toEqual([
      { start_time: ns(day + 22 * 3600 + 30 * 60), end_time: ns(day + 86_400 + 3600 + 15 * 60), file_id: null },
    ]);
  });
});
