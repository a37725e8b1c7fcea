/**
 * WebSocket streams through workerd while a simulated network's record files are ingested: for each stream kind a
 * subscriber that resumes from a past timestamp, is disconnected and resumes again after the last message it got,
 * and one that follows live rows only. Every message must be the element the REST list route returns for that row,
 * in order, none missing, none repeated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../../../simulator/main.ts';
import { simulate } from '../../../simulator/run.ts';
import { ingestStreams } from '../../../test/harness/simnet-stages.ts';
import { openStreamClient, type StreamClient } from '../../../test/harness/stream-client.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

/** Small, so that a subscriber that never acknowledges is closed early. */
const MAX_BUFFER = 20;
const CAUGHT_UP_MS = 60_000;

const out = mkdtempSync(path.join(tmpdir(), 'stream-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Writes `files` more record files of the simulated network and ingests them. */
async function grow(url: string, files: number, first = false): Promise<void> {
  await simulate({
    ...parseOptions([
      '--out',
      out,
      '--files',
      String(files),
      '--tps',
      '40',
      '--seed',
      'stream',
      ...(first ? [] : ['--continue']),
    ]),
    weights: { submitMessage: 200, callContract: 80, hbarTransfer: 120 },
  });
  await ingestStreams(out, url);
}

const { db, worker } = registerWorkerSuite({
  seed: (database) => grow(database.url, 3, true),
  vars: { HIERO_MIRROR_REST_EDGE_STREAM_MAXBUFFERSIZE: String(MAX_BUFFER) },
  timeout: 300_000,
});

async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

interface Kind {
  readonly name: string;
  /** The stream path and query (without the resume parameters). */
  readonly stream: string;
  /** The REST list path and query (without timestamp, order, limit) and the body's list. */
  readonly list: string;
  readonly field: 'messages' | 'blocks' | 'transactions' | 'logs';
}

// biome-ignore lint/suspicious/noExplicitAny: REST list elements of every shape
type Row = any;

/** A row's place: its consensus timestamp (a block's last one) and a log's index. */
const timestampOf = (row: Row): string => row.consensus_timestamp ?? row.timestamp?.to ?? row.timestamp;

/** Every element of a REST list after `after` (a timestamp) up to `upTo`, oldest first, following `links.next`. */
async function restRows(kind: Kind, after: string, upTo: string): Promise<Row[]> {
  const separator = kind.list.includes('?') ? '&' : '?';
  let next: string | null = `${kind.list}${separator}timestamp=gt:${after}&timestamp=lte:${upTo}&order=asc&limit=100`;
  const rows: Row[] = [];
  while (next) {
    const { status, body } = await worker.get(next);
    expect(status, next).toBe(200);
    rows.push(...body[kind.field]);
    next = body.links.next;
  }
  return rows;
}

/** The resume parameters after a row: `timestamp=gt:`, or for a log `timestamp=gte:` with its index. */
const resumeAfter = (kind: Kind, row: Row): string =>
  kind.field === 'logs' ? `timestamp=gte:${row.timestamp}&index=gt:${row.index}` : `timestamp=gt:${timestampOf(row)}`;

const streamUrl = (kind: Kind, resume?: string) => {
  const query = [kind.stream.split('?')[1], resume].filter(Boolean).join('&');
  return `${worker.baseUrl.replace('http', 'ws')}${kind.stream.split('?')[0]}${query ? `?${query}` : ''}`;
};

const latestEnd = async () =>
  (await query<{ end: string }>('select max(consensus_end)::text as end from record_file'))[0]?.end ?? '0';
const asTimestamp = (ns: string) => `${ns.slice(0, -9)}.${ns.slice(-9)}`;

describe('WebSocket streams', () => {
  it('deliver every row of each kind as its REST list does, across a disconnect and a resume', async () => {
    const [topic] = await query<{ id: string }>(
      'select topic_id::text as id from topic_message group by topic_id order by count(*) desc limit 1',
    );
    const [contract] = await query<{ id: string; topic0: string }>(
      `select contract_id::text as id, encode(topic0, 'hex') as topic0 from contract_log
        group by contract_id, topic0 order by count(*) desc limit 1`,
    );
    const [account] = await query<{ id: string }>(
      `select entity_id::text as id from crypto_transfer where entity_id > 1000
        group by entity_id order by count(*) desc limit 1`,
    );
    const [start] = await query<{ end: string }>(
      'select consensus_end::text as end from record_file order by index limit 1',
    );
    expect([topic, contract, account, start].every(Boolean)).toBe(true);
    const kinds: Kind[] = [
      {
        name: 'topic messages',
        stream: `/api/v1/stream/topics/0.0.${topic?.id}/messages`,
        list: `/api/v1/topics/0.0.${topic?.id}/messages`,
        field: 'messages',
      },
      {
        name: 'topic messages as text',
        stream: `/api/v1/stream/topics/0.0.${topic?.id}/messages?encoding=UTF-8`,
        list: `/api/v1/topics/0.0.${topic?.id}/messages?encoding=UTF-8`,
        field: 'messages',
      },
      { name: 'blocks', stream: '/api/v1/stream/blocks', list: '/api/v1/blocks', field: 'blocks' },
      {
        name: 'transactions',
        stream: `/api/v1/stream/transactions?account.id=0.0.${account?.id}`,
        list: `/api/v1/transactions?account.id=0.0.${account?.id}`,
        field: 'transactions',
      },
      {
        name: 'contract logs',
        stream: `/api/v1/stream/contracts/0.0.${contract?.id}/results/logs?topic0=0x${contract?.topic0}`,
        list: `/api/v1/contracts/0.0.${contract?.id}/results/logs?topic0=0x${contract?.topic0}`,
        field: 'logs',
      },
    ];
    const from = asTimestamp(start?.end ?? '0');
    const resumed = new Map<Kind, StreamClient>();
    const live = new Map<Kind, StreamClient>();
    for (const kind of kinds) {
      resumed.set(kind, await openStreamClient(streamUrl(kind, `timestamp=gt:${from}`)));
      live.set(kind, await openStreamClient(streamUrl(kind)));
    }
    // Live subscribers start at the tail's watermark when their hub registers them.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await grow(db.url, 3);

    const caughtUp = async (kind: Kind, client: StreamClient, after: string) => {
      const end = asTimestamp(await latestEnd());
      const expected = await restRows(kind, after, end);
      const last = expected[expected.length - 1];
      await client.waitFor(
        (messages) => !last || messages.some((m) => timestampOf(m) === timestampOf(last) && m.index === last.index),
        CAUGHT_UP_MS,
      );
      return end;
    };

    const firstParts = new Map<Kind, Row[]>();
    for (const kind of kinds) {
      const client = resumed.get(kind) as StreamClient;
      await caughtUp(kind, client, from);
      await client.close();
      firstParts.set(kind, [...client.messages]);
    }
    await grow(db.url, 3);

    for (const kind of kinds) {
      const first = firstParts.get(kind) ?? [];
      expect(first.length, `${kind.name}: messages before the disconnect`).toBeGreaterThan(0);
      const lastReceived = first[first.length - 1];
      const again = await openStreamClient(streamUrl(kind, resumeAfter(kind, lastReceived)));
      const end = await caughtUp(kind, again, from);
      await again.close();
      expect([...first, ...again.messages], kind.name).toEqual(await restRows(kind, from, end));

      const follower = live.get(kind) as StreamClient;
      await caughtUp(kind, follower, from);
      await follower.close();
      const seen = follower.messages;
      expect(seen.length, `${kind.name}: live messages`).toBeGreaterThan(0);
      const all = await restRows(kind, from, end);
      const startsAt = all.findIndex((row) => timestampOf(row) === timestampOf(seen[0]) && row.index === seen[0].index);
      expect(startsAt, `${kind.name}: the first live message is a REST row`).toBeGreaterThanOrEqual(0);
      expect(seen, `${kind.name} (live)`).toEqual(all.slice(startsAt));
    }
  }, 240_000);

  it('reads the database once per interval while idle, however many subscribers there are', async () => {
    const [topic] = await query<{ id: string }>('select topic_id::text as id from topic_message limit 1');
    const paths = [
      '/api/v1/stream/blocks',
      `/api/v1/stream/topics/0.0.${topic?.id}/messages`,
      ...Array.from({ length: 30 }, (_, i) => `/api/v1/stream/transactions?account.id=0.0.${1001 + i}`),
    ];
    const clients = await Promise.all(
      paths.map((p) => openStreamClient(`${worker.baseUrl.replace('http', 'ws')}${p}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = worker.dbQueries;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const statements = worker.dbQueries - before;
    // 500 ms between rounds: six rounds in three seconds, one statement each while no record file arrives (a busy
    // machine may delay some).
    expect(statements).toBeGreaterThanOrEqual(2);
    expect(statements).toBeLessThanOrEqual(7);
    await Promise.all(clients.map((client) => client.close()));
  });

  it('closes a subscriber that leaves its buffer full of unacknowledged messages', async () => {
    const [topic] = await query<{ id: string; count: string }>(
      'select topic_id::text as id, count(*)::text as count from topic_message group by 1 order by 2 desc limit 1',
    );
    expect(Number(topic?.count)).toBeGreaterThan(MAX_BUFFER);
    const client = await openStreamClient(
      `${worker.baseUrl.replace('http', 'ws')}/api/v1/stream/topics/0.0.${topic?.id}/messages?timestamp=gt:0`,
      { acknowledge: false },
    );
    const closed = await client.closed;
    expect(closed).toEqual({
      code: 1008,
      reason: `Subscriber too slow: more than ${MAX_BUFFER} messages unacknowledged`,
    });
    expect(client.messages).toHaveLength(MAX_BUFFER);
  }, 60_000);

  it.each([
    ['/api/v1/stream/topics/0.0.x/messages', 400, 'Invalid parameter: topic.id'],
    ['/api/v1/stream/blocks?timestamp=lt:5', 400, 'Invalid parameter: timestamp'],
    ['/api/v1/stream/blocks?timestamp=gt:1&timestamp=gt:2', 400, 'Invalid parameter: timestamp'],
    ['/api/v1/stream/blocks?limit=5', 400, 'Unknown query parameter: limit'],
    ['/api/v1/stream/topics/0.0.5/messages?encoding=hex', 400, 'Invalid parameter: encoding'],
    ['/api/v1/stream/transactions', 400, 'Invalid parameter: account.id'],
    ['/api/v1/stream/transactions?account.id=gt:0.0.5', 400, 'Invalid parameter: account.id'],
    ['/api/v1/stream/contracts/0.0.1001/results/logs?index=gt:1', 400, 'Invalid parameter: index'],
    ['/api/v1/stream/contracts/0.0.1001/results/logs?topic0=xyz', 400, 'Invalid parameter: topic0'],
    ['/api/v1/stream/blocks', 426, 'Expected a WebSocket upgrade'],
  ])('answers %s without an upgrade: %i %s', async (url, status, message) => {
    const response = await worker.get(url);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ _status: { messages: [{ message }] } });
  });
});

describe('WebSocket streams and the rate limit', () => {
  const limited = registerWorkerSuite({ vars: { HIERO_MIRROR_REST_EDGE_RATELIMIT_READS: '{"rate":0.01,"burst":2}' } });

  it("count each subscription against the client's bucket", async () => {
    expect((await limited.worker.get('/api/v1/stream/blocks')).status).toBe(426);
    expect((await limited.worker.get('/api/v1/stream/blocks?timestamp=gt:0')).status).toBe(426);
    const refused = await limited.worker.get('/api/v1/stream/blocks');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ _status: { messages: [{ message: 'Requests per second rate limit exceeded.' }] } });
  });
});
