import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  clearTables,
  exchangeRateSetBytes,
  FILE_APPEND,
  FILE_CREATE,
  insertFileData,
} from '../../../test/harness/factories-network.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const FILE = 112n;
const SECOND = 1_000_000_000n;
// three versions of the file, each a full update
const VERSIONS = [1_700_000_000n * SECOND, 1_700_000_100n * SECOND, 1_700_000_200n * SECOND];
const CURRENT_EXPIRY = 1_759_951_090;
const NEXT_EXPIRY = 1_759_972_690;

const ts = (ns: bigint) => `${ns / SECOND}.${(ns % SECOND).toString().padStart(9, '0')}`;
const rates = (hbars: number) =>
  exchangeRateSetBytes({ hbars, cents: 12, expiration: CURRENT_EXPIRY }, { hbars, cents: 15, expiration: NEXT_EXPIRY });
const expected = (version: number) => ({
  current_rate: { cent_equivalent: 12, expiration_time: CURRENT_EXPIRY, hbar_equivalent: version + 1 },
  next_rate: { cent_equivalent: 15, expiration_time: NEXT_EXPIRY, hbar_equivalent: version + 1 },
  timestamp: ts(VERSIONS[version] as bigint),
});
const notFound = { _status: { messages: [{ message: 'Not Found', detail: 'File 0.0.112 not found' }] } };
const badRequest = (detail: string) => ({ _status: { messages: [{ message: 'Bad Request', detail }] } });

/** Replaces the file's history and drops the edge cache. */
async function reset(...versions: { at: bigint; data: Uint8Array | null; type?: number }[]) {
  await clearTables(db.sql, ['file_data']);
  for (const { at, data, type } of versions) {
    await insertFileData(db.sql, { consensus_timestamp: at, entity_id: FILE, file_data: data, transaction_type: type });
  }
  await worker.setState({});
}

const { db, worker } = registerWorkerSuite();

describe('GET /api/v1/network/exchangerate', () => {
  it('answers 404 when the file has never been written', async () => {
    const res = await worker.get('/api/v1/network/exchangerate');
    expect(res).toMatchObject({ status: 404, body: notFound });
  });

  it('shows the latest version, cached for a minute', async () => {
    await reset(...VERSIONS.map((at, i) => ({ at, data: rates(i + 1) })));
    const res = await worker.get('/api/v1/network/exchangerate');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.body).toEqual(expected(2));
  });

  const [v0, v1, v2] = VERSIONS.map(ts);
  it.each([
    [`timestamp=${v1}`, 1],
    [`timestamp=${v2}`, 2],
    [`timestamp=eq:${v0}`, 0],
    [`timestamp=eq:${v1}`, 1],
    [`timestamp=gt:${v0}`, 2],
    [`timestamp=gte:${v1}`, 2],
    [`timestamp=lt:${v1}`, 0],
    [`timestamp=lt:${v2}`, 1],
    [`timestamp=LTE:${v1}`, 1],
    [`timestamp=gt:${v0}&timestamp=eq:${v2}`, 2],
    [`timestamp=eq:${v1}&timestamp=eq:${v2}`, 2],
    [`timestamp=lt:${v0}&timestamp=eq:${v2}`, 2],
    [`timestamp=gt:${v0}&timestamp=lt:${v2}`, 1],
    [`timestamp=gte:${v1}&timestamp=lte:${v1}`, 1],
    [`timestamp=gt:${v0},lte:${v1}`, 1],
    ['timestamp=1700000150', 1],
    ['timestamp=', 2],
  ])('picks the version for %s', async (query, version) => {
    const res = await worker.get(`/api/v1/network/exchangerate?${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected(version));
  });

  it.each([`timestamp=lt:${v0}`, `timestamp=gt:${v2}`, `timestamp=gt:${v1}&timestamp=lt:${v1}`])(
    'answers 404 when no version lies in %s',
    async (query) => {
      const res = await worker.get(`/api/v1/network/exchangerate?${query}`);
      expect(res).toMatchObject({ status: 404, body: notFound });
    },
  );

  it('reads a fraction of a second as a count of nanoseconds', async () => {
    const at = 1_700_000_000n * SECOND + 5n;
    await reset({ at, data: rates(1) });
    expect((await worker.get('/api/v1/network/exchangerate?timestamp=1700000000.5')).status).toBe(200);
    expect((await worker.get('/api/v1/network/exchangerate?timestamp=1700000000.4')).status).toBe(404);
  });

  it('joins a create with its appends, and skips empty updates', async () => {
    const bytes = rates(7);
    const at = VERSIONS[0] as bigint;
    await reset(
      { at, data: bytes.subarray(0, 10), type: FILE_CREATE },
      { at: at + 1n, data: bytes.subarray(10), type: FILE_APPEND },
      { at: at + 2n, data: new Uint8Array(0) },
    );
    const res = await worker.get('/api/v1/network/exchangerate');
    expect(res.body).toMatchObject({ current_rate: { hbar_equivalent: 7 }, timestamp: ts(at + 1n) });
  });

  it('falls back to the version before one that does not parse', async () => {
    const [first, second] = VERSIONS as [bigint, bigint];
    const partial = rates(9);
    // the latest version is a create whose append is not written yet
    await reset({ at: first, data: rates(1) }, { at: second, data: partial.subarray(0, 7), type: FILE_CREATE });
    const res = await worker.get('/api/v1/network/exchangerate');
    expect(res.body).toEqual({ ...expected(0), timestamp: ts(first) });
  });

  it('gives up after ten versions that do not parse', async () => {
    const first = VERSIONS[0] as bigint;
    const corrupt = (i: number) => ({ at: first + BigInt(i + 1), data: Buffer.from([0x0f, ...randomBytes(8)]) });
    await reset({ at: first, data: rates(1) }, ...Array.from({ length: 9 }, (_, i) => corrupt(i)));
    expect((await worker.get('/api/v1/network/exchangerate')).body).toEqual({ ...expected(0), timestamp: ts(first) });
    await reset({ at: first, data: rates(1) }, ...Array.from({ length: 10 }, (_, i) => corrupt(i)));
    expect(await worker.get('/api/v1/network/exchangerate')).toMatchObject({ status: 404, body: notFound });
  });

  it('shows rates the file does not set as null', async () => {
    await reset({ at: VERSIONS[0] as bigint, data: new Uint8Array(0), type: FILE_CREATE });
    const res = await worker.get('/api/v1/network/exchangerate');
    expect(res.body).toEqual({ current_rate: null, next_rate: null, timestamp: ts(VERSIONS[0] as bigint) });
  });

  it.each([
    ['timestamp=1&timestamp=lt:2&timestamp=gt:0', 'timestamp size must be between 0 and 2'],
    ['timestamp=1,2,3', 'timestamp size must be between 0 and 2'],
    ['timestamp=test&timestamp=%3cscript%3ealert(1)%3c%2fscript%3e', "Failed to convert 'timestamp'"],
    ['timestamp=ne:1', "Failed to convert 'timestamp'"],
    ['timestamp=1,x', "Failed to convert 'timestamp'"],
    ['timestamp=1.0000000001', "Failed to convert 'timestamp'"],
    ['timestamp=99999999999', "Failed to convert 'timestamp'"],
  ])('answers 400 for %s', async (query, detail) => {
    const res = await worker.get(`/api/v1/network/exchangerate?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(badRequest(detail));
  });
});
