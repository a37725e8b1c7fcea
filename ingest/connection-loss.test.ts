import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { connectionLossHandler } from './connection-loss.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** Short, so that the tests need not wait for the production grace. */
const GRACE_MS = 50;

/**
 * Connects a client with the handler, has the server end its connection, and returns what the handler logged once
 * its grace has passed.
 */
async function loseConnection(stop: AbortController, onError?: () => void): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const client = new pg.Client({ connectionString: db.url });
  const report = connectionLossHandler(stop.signal, (fields) => lines.push(fields), GRACE_MS);
  client.on('error', report);
  if (onError) client.on('error', onError);
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const ended = new Promise((resolve) => client.once('end', resolve));
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
  } finally {
    await admin.end();
  }
  await ended;
  await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 2));
  return lines;
}

describe('connectionLossHandler', () => {
  it('reports a connection the server ends while the ingest runs', async () => {
    const lines = await loseConnection(new AbortController());
    expect(lines[0]).toEqual({
      msg: 'database connection lost',
      level: 'warn',
      error: 'terminating connection due to administrator command',
    });
  });

  it('stays quiet about a connection the server ends once a stop was asked', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await loseConnection(stop)).toEqual([]);
  });

  it('stays quiet when the stop is asked in the same turn of the event loop as the loss, after it', async () => {
    const stop = new AbortController();
    expect(await loseConnection(stop, () => stop.abort())).toEqual([]);
  });

  it('stays quiet when the stop is asked in a later turn, within the grace', async () => {
    const stop = new AbortController();
    expect(await loseConnection(stop, () => setTimeout(() => stop.abort(), 5))).toEqual([]);
  });
});
