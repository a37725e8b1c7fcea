import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { ingestFixture } from '../testing/fixtures.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('ingesting the v6 record stream fixtures', () => {
  it('writes both record files with the hashes, indexes and counts of the MANIFEST', async () => {
    const run = await ingestFixture(db.url, 'v6');
    expect(run.files).toBe(2);
    const files = await db.sql.query(
      'select name, index, count, hash, prev_hash, file_hash, consensus_start, consensus_end, sidecar_count, version from record_file order by consensus_end',
    );
    expect(files.rows).toMatchObject([
      {
        name: '2022-07-13T08_46_08.041986003Z.rcd.gz',
        index: '5',
        count: '1',
        hash: 'a6c241fad2c636f68a6aa0da9293245a5ef0ebef345cd139858068ff7998716cefe0fd3afa0d21304725507061975279',
        prev_hash: '13d2594b9e9dbb73dad0cad67a96ad7a0e249af8693aa894003876c9ddd5534b3143e4d785e04fc0c461945a03e85178',
        consensus_start: '1657701968041986003',
        consensus_end: '1657701968041986003',
        version: 6,
      },
      {
        name: '2022-07-13T08_46_11.304284003Z.rcd.gz',
        index: '6',
        count: '2',
        prev_hash: 'a6c241fad2c636f68a6aa0da9293245a5ef0ebef345cd139858068ff7998716cefe0fd3afa0d21304725507061975279',
        file_hash: 'ed518c8d05f470d4540db35ea8665ab158f9aeb0bcaa3332d171c1efba119da52c1ee510df599269b022d963d4d1e474',
        consensus_start: '1657701971304284003',
        consensus_end: '1657701971304284004',
        sidecar_count: 1,
      },
    ]);
    const types = await db.sql.query('select type, result, nonce from transaction order by consensus_timestamp');
    expect(types.rows).toEqual([
      { type: 19, result: 22, nonce: 0 },
      { type: 7, result: 22, nonce: 0 },
      { type: 8, result: 22, nonce: 1 },
    ]);
  });
});
