import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from './sql-proxy.ts';

let db: TestDatabase;
const proxies: SqlProxy[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await db?.drop();
});

async function proxyFor(options: { socketDir?: boolean; delayMs?: number; poolSize?: number }): Promise<SqlProxy> {
  const socketDir = options.socketDir ? inject('pgSocketDir') : undefined;
  const proxy = await startSqlProxy({
    port: 0,
    targets: [proxyTarget(db.url, socketDir)],
    delayMs: options.delayMs,
    poolSize: options.poolSize,
  });
  proxies.push(proxy);
  return proxy;
}

/** One statement as the Worker's driver sends it: Neon's SQL-over-HTTP protocol. */
async function query(proxy: SqlProxy, connectionString: string, text: string) {
  const res = await fetch(`http://${proxy.address}/sql`, {
    method: 'POST',
    headers: { 'neon-connection-string': connectionString },
    body: JSON.stringify({ query: text, params: [] }),
  });
  return { status: res.status, body: (await res.json()) as { rows?: unknown[][]; message?: string } };
}

const CLIENT_ADDRESS = 'select client_addr::text from pg_stat_activity where pid = pg_backend_pid()';

describe('the local SQL proxy', () => {
  it('reaches a target with a socket directory through its Unix socket, others over TCP', async () => {
    const viaSocket = await query(await proxyFor({ socketDir: true }), db.url, CLIENT_ADDRESS);
    expect(viaSocket).toEqual({ status: 200, body: expect.objectContaining({ rows: [[null]] }) });
    const viaTcp = await query(await proxyFor({}), db.url, CLIENT_ADDRESS);
    expect(viaTcp).toEqual({ status: 200, body: expect.objectContaining({ rows: [['127.0.0.1/32']] }) });
  });

  it('answers many statements at once over no more connections than its pool, pipelined', async () => {
    const proxy = await proxyFor({ socketDir: true, poolSize: 2 });
    const named = new URL(db.url);
    named.searchParams.set('application_name', 'pipelined-proxy-test');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => query(proxy, named.href, `select ${i} as n, pg_backend_pid() as pid`)),
    );
    expect(answers.map((a) => a.body.rows?.[0]?.[0])).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
    expect(new Set(answers.map((a) => a.body.rows?.[0]?.[1])).size).toBeLessThanOrEqual(2);
  });

  it('answers a failed statement with 400 and the database error, the statements around it as usual', async () => {
    const proxy = await proxyFor({ socketDir: true });
    const [before, failed, after] = await Promise.all([
      query(proxy, db.url, 'select 1 as n'),
      query(proxy, db.url, 'select 1/0'),
      query(proxy, db.url, 'select 2 as n'),
    ]);
    expect(failed).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'division by zero', code: '22012' }),
    });
    expect([before.body.rows, after.body.rows]).toEqual([[['1']], [['2']]]);
  });

  it('refuses a database that is not among its targets', async () => {
    const other = new URL(db.url);
    other.port = '1';
    const res = await query(await proxyFor({ socketDir: true }), other.toString(), 'select 1');
    expect(res).toEqual({ status: 403, body: { message: 'database not allowed' } });
  });

  it('answers 400 to a body that is not JSON', async () => {
    const proxy = await proxyFor({ socketDir: true });
    const res = await fetch(`http://${proxy.address}/sql`, {
      method: 'POST',
      headers: { 'neon-connection-string': db.url },
      body: 'select 1',
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { message: 'request body is not JSON' },
    });
  });

  it('delays every round trip by its distance and counts a batch as one round trip', async () => {
    const proxy = await proxyFor({ socketDir: true, delayMs: 60 });
    const started = performance.now();
    await query(proxy, db.url, 'select 1');
    const batch = await fetch(`http://${proxy.address}/sql`, {
      method: 'POST',
      headers: { 'neon-connection-string': db.url },
      body: JSON.stringify({ queries: [{ query: 'select 1' }, { query: 'select 2' }] }),
    });
    expect(batch.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(120);
    expect({ roundTrips: proxy.roundTrips, queries: proxy.queries }).toEqual({ roundTrips: 2, queries: 3 });
  });

  it('counts round trips that overlap as one a client waits for', async () => {
    const proxy = await proxyFor({ socketDir: true, delayMs: 50 });
    await Promise.all([query(proxy, db.url, 'select 1'), query(proxy, db.url, 'select 2')]);
    await query(proxy, db.url, 'select 3');
    expect({ roundTrips: proxy.roundTrips, sequential: proxy.sequentialRoundTrips }).toEqual({
      roundTrips: 3,
      sequential: 2,
    });
  });
});
