import { describe, expect, it } from 'vitest';
import { APPEND_ONLY_WRITER } from '../../ingest/sink/append-only-history.ts';
import { insertRow, insertTransaction } from '../../test/harness/factories.ts';
import { insertRecordFile } from '../../test/harness/factories-blocks.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';

const FINAL = 'public, max-age=31536000, immutable';
const MINUTE = 60_000_000_000n;
const T0 = 1_700_000_000_000_000_000n;
/** Block 0 holds the first transaction; block 1 closes 40 minutes later, past its transaction id's window. */
const BLOCKS = [
  { index: 0n, consensus_start: T0 - 1_000n, consensus_end: T0 + 1_000n },
  { index: 1n, consensus_start: T0 + 1_001n, consensus_end: T0 + 40n * MINUTE },
];
const LATE = T0 + 39n * MINUTE;
/** The newest committed timestamp: block 1's end. */
const COMMITTED = T0 + 40n * MINUTE;
const at = (ns: bigint) => `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}`;
const idOf = (ns: bigint) => `0.0.1001-${ns / 1_000_000_000n}-${(ns % 1_000_000_000n).toString().padStart(9, '0')}`;

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    for (const [i, block] of BLOCKS.entries()) await insertRecordFile(db.sql, { ...block, hash: `${i}`.repeat(96) });
    await insertTransaction(db.sql, { consensus_timestamp: T0, payer_account_id: 1001n, valid_start_ns: T0 - 5n });
    await insertTransaction(db.sql, { consensus_timestamp: LATE, payer_account_id: 1001n, valid_start_ns: LATE - 5n });
    // Seen created: without an EVM address, with one; first seen in a transfer (its type a default).
    for (const [id, evm, created] of [
      [1001n, null, 1n],
      [1002n, Buffer.alloc(20, 7), 1n],
      [1003n, null, null],
    ] as const) {
      await insertRow(db.sql, 'entity', {
        id,
        num: id,
        realm: 0,
        shard: 0,
        type: 'ACCOUNT',
        evm_address: evm,
        created_timestamp: created,
        timestamp_range: '[1,)',
      });
    }
  },
});

const cacheControl = async (path: string) => (await worker.get(path)).headers.get('cache-control');
const declareAppendOnly = () =>
  db.sql.query('insert into append_only_history (writer) values ($1) on conflict do nothing', [APPEND_ONLY_WRITER]);

describe('final answers', () => {
  it("keep the reference's max-age while the history is not declared append-only", async () => {
    await worker.setState({});
    expect(await cacheControl('/api/v1/blocks/0')).toBe('public, max-age=600');
    expect(await cacheControl(`/api/v1/transactions/${idOf(T0 - 5n)}`)).toBe('public, max-age=600');
    expect(await cacheControl(`/api/v1/transactions?timestamp=lte:${at(T0)}`)).toBe('public, max-age=2');
    expect((await worker.get('/api/v1/contracts/0.0.1001')).headers.get('cache-control')).toBeNull();
  });

  it('mark blocks, closed pages and settled transactions final once it is', async () => {
    await declareAppendOnly();
    await worker.setState({});
    expect(await cacheControl('/api/v1/blocks/1')).toBe(FINAL);
    expect(await cacheControl('/api/v1/blocks?block.number=lte:1&limit=1')).toBe(FINAL);
    expect(await cacheControl(`/api/v1/blocks?timestamp=gte:${at(T0)}&limit=1&order=asc`)).toBe(FINAL);
    expect(await cacheControl('/api/v1/blocks?limit=1')).toBe('public, max-age=1');
    expect(await cacheControl(`/api/v1/transactions?timestamp=lte:${at(LATE)}&limit=1`)).toBe(FINAL);
    expect(await cacheControl(`/api/v1/transactions?timestamp=${at(T0)}`)).toBe(FINAL);
    expect(await cacheControl(`/api/v1/transactions?timestamp=lte:${at(COMMITTED + 1n)}`)).toBe('public, max-age=2');
    expect(await cacheControl('/api/v1/transactions')).toBe('public, max-age=2');
    // A duplicate or child may still join the later transaction's id within 35 minutes of its valid start.
    expect(await cacheControl(`/api/v1/transactions/${idOf(T0 - 5n)}`)).toBe(FINAL);
    expect(await cacheControl(`/api/v1/transactions/${idOf(LATE - 5n)}`)).toBe('public, max-age=600');
  });

  it('mark an empty page final when its timestamp is committed, not past the newest block', async () => {
    await declareAppendOnly();
    await worker.setState({});
    const results = (timestamp: bigint) => `/api/v1/contracts/results?timestamp=${at(timestamp)}&internal=true&limit=1`;
    expect(await cacheControl(results(T0))).toBe(FINAL);
    expect(await cacheControl(results(COMMITTED + 1n))).toBe('public, max-age=10');
  });

  it('mark a 404 final for an entity that can never be of the type asked, and keep it at the edge', async () => {
    await declareAppendOnly();
    await worker.setState({});
    const notAContract = await worker.get('/api/v1/contracts/0.0.1001');
    expect([notAContract.status, notAContract.headers.get('cache-control')]).toEqual([404, FINAL]);
    expect(notAContract.body).toEqual({ _status: { messages: [{ message: 'Not found' }] } });
    expect((await worker.get('/api/v1/tokens/0.0.1001')).headers.get('cache-control')).toBe(FINAL);
    // An account with an EVM address may be a hollow account that a CREATE2 completes as a contract.
    expect((await worker.get('/api/v1/contracts/0.0.1002')).headers.get('cache-control')).toBeNull();
    // An account of a history that started after its creation may be a contract the ingest has not seen as one.
    expect((await worker.get('/api/v1/contracts/0.0.1003')).headers.get('cache-control')).toBeNull();
    // An id nothing has yet: it may still appear.
    expect((await worker.get('/api/v1/contracts/0.0.4242')).headers.get('cache-control')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const queries = worker.dbQueries;
    expect((await worker.get('/api/v1/contracts/0.0.1001')).status).toBe(404);
    expect(worker.dbQueries).toBe(queries);
    expect((await worker.get('/api/v1/contracts/0.0.4242')).status).toBe(404);
    expect(worker.dbQueries).toBeGreaterThan(queries);
  });
});

describe('answers that can still change', () => {
  const LIST = '/api/v1/transactions?limit=1';
  const BROWSER = { origin: 'https://explorer.example' };
  let next = LATE + 1n;
  /** A transaction newer than every other: the list's head changes. */
  const arrive = async () => {
    const timestamp = next++;
    await insertTransaction(db.sql, { consensus_timestamp: timestamp, payer_account_id: 1001n });
    return at(timestamp);
  };

  it('are served stale to a browser within the bound while one revalidation reads them again', async () => {
    await worker.setState({ config: { edge: { cache: { staleWhileRevalidate: 30 } } } });
    const first = await worker.get(LIST, BROWSER);
    const newest = await arrive();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const queries = worker.dbQueries;
    const stale = await worker.get(LIST, BROWSER);
    expect(stale.body).toEqual(first.body);
    expect(Number(stale.headers.get('age'))).toBeGreaterThanOrEqual(2);
    expect(stale.headers.get('cache-control')).toBe('public, max-age=2');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(worker.dbQueries).toBeGreaterThan(queries);
    const fresh = await worker.get(LIST, BROWSER);
    expect(fresh.body.transactions[0].consensus_timestamp).toBe(newest);
    expect(fresh.headers.get('age')).toBeNull();
  });

  it('are read again once expired for a client that is not a browser, or when the bound is 0', async () => {
    for (const [bound, headers] of [
      [30, {}],
      [0, BROWSER],
    ] as const) {
      await worker.setState({ config: { edge: { cache: { staleWhileRevalidate: bound } } } });
      await worker.get(LIST, headers);
      const newest = await arrive();
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const again = await worker.get(LIST, headers);
      expect(again.body.transactions[0].consensus_timestamp).toBe(newest);
      expect(again.headers.get('age')).toBeNull();
    }
  });
});
