import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const db = useTestDatabase();

const call = (at: number, gasUsed: number, extra: Record<string, unknown> = {}) => ({
  at,
  body: { contractCall: { contractID: { contractNum: 2000 }, gas: 90_000 } },
  record: { contractCallResult: { contractID: { contractNum: 2000 }, gasUsed } },
  ...extra,
});

const fileRow = async (index: number) =>
  rowsOf(
    db.sql,
    `select gas_used::int, length(logs_bloom) as bloom_bytes, logs_bloom = '\\x'::bytea or
            logs_bloom = decode(repeat('00', 256), 'hex') as zero
       from record_file where index = ${index}`,
  );

describe('record_file.gas_used and logs_bloom', () => {
  it('are 0 and empty without a top-level function result', async () => {
    await ingestItems(db.sql, [{ at: 100, body: { cryptoTransfer: {} } }]);
    expect(await fileRow(1)).toEqual([{ gas_used: 0, bloom_bytes: 0, zero: true }]);
  });

  it('hold 256 zero bytes once a top-level item has a function result, even one without a bloom', async () => {
    await ingestItems(db.sql, [call(200, 30_000)]);
    expect(await fileRow(2)).toEqual([{ gas_used: 30_000, bloom_bytes: 256, zero: true }]);
  });

  it("count a batch's inner transactions (nonce 0) but not the children of a call", async () => {
    await ingestItems(db.sql, [
      { at: 300, body: { atomic_batch: {} } },
      call(300, 11_000, {
        nanos: 1,
        parent: { at: 300 },
        body: { batch_key: { ed25519: Buffer.alloc(32, 1) }, contractCall: { contractID: { contractNum: 2000 } } },
      }),
      call(300, 5_000, { nanos: 2, nonce: 1, parent: { at: 300, nanos: 1 } }),
    ]);
    expect(await fileRow(3)).toEqual([{ gas_used: 11_000, bloom_bytes: 256, zero: true }]);
  });
});

describe('record_file.load_end', () => {
  it('is epoch milliseconds, as the importer stamps it', async () => {
    const [row] = await rowsOf(db.sql, 'select load_end::text from record_file where index = 1');
    const loadEnd = Number(row?.load_end);
    expect(Math.abs(loadEnd - Date.now())).toBeLessThan(10 * 60_000);
  });
});
