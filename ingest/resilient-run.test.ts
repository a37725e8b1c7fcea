import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalPostgres, startLocalPostgres } from '../db/local/embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import { freePort } from '../scripts/local-stack/free-port.ts';
import { REPO_ROOT } from '../scripts/local-stack/worker-process.ts';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { runIngest } from './pipeline/run.ts';
import { databaseLabel, runResiliently, waitForDatabase } from './resilient-run.ts';
import { DirStore } from './sources/dir-store.ts';
import { RecordStreamSource } from './sources/record-stream-source.ts';
import { addressBook, RECORDSTREAMS } from './testing/fixtures.ts';
import { SourceUnavailableError } from './transient-errors.ts';

type Line = Record<string, unknown>;

/** The v6 fixtures (two record files) ingested until idle on `client` (and `secondClient`). */
const ingestV6 = (client: pg.ClientBase, log: (line: Line) => void, secondClient?: pg.ClientBase) =>
  runIngest({
    source: new RecordStreamSource(new DirStore(path.join(RECORDSTREAMS, 'v6'))),
    client,
    ...(secondClient ? { secondClient } : {}),
    bootstrapAddressBook: addressBook('test-v6-sidecar-4n.bin'),
    untilIdle: true,
    prepareThread: false,
    log,
  }).then(() => undefined);

const recordFiles = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('select count(*)::int as n from record_file')).rows[0]?.n;
  } finally {
    await client.end();
  }
};

describe('runResiliently on a database that goes away', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('reconnects when the server ends a session mid-run, and resumes from the cursor', async () => {
    const lines: Line[] = [];
    let runs = 0;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await runResiliently({
      databaseUrl: db.url,
      signal: new AbortController().signal,
      log: (line) => lines.push(line),
      initialWaitMs: 50,
      secondConnection: true,
      run: async (client, secondClient) => {
        runs++;
        if (!secondClient) throw new Error('no second client');
        if (runs === 1) {
          // The second connection is the one lost.
          const { rows } = await secondClient.query<{ pid: number }>('select pg_backend_pid() as pid');
          await Promise.all([
            secondClient.query('select pg_sleep(30)'),
            admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]),
          ]);
        }
        await ingestV6(client, (line) => lines.push(line), secondClient);
      },
    });
    await admin.end();
    expect(runs).toBe(2);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'database unavailable',
        level: 'warn',
        database: databaseLabel(db.url),
        waitMs: 50,
      }),
    );
    expect(await recordFiles(db.url)).toBe(2);
  });

  it('waits out a source that cannot be read, doubling the wait', async () => {
    const lines: Line[] = [];
    let runs = 0;
    await runResiliently({
      databaseUrl: db.url,
      signal: new AbortController().signal,
      log: (line) => lines.push(line),
      initialWaitMs: 10,
      run: async () => {
        if (++runs < 3) throw new SourceUnavailableError('s3://bucket: HTTP 503');
      },
    });
    expect(lines.filter((l) => l.msg === 'source unavailable').map((l) => l.waitMs)).toEqual([10, 20]);
  });

  it('ends a wait as soon as a database seen down answers, and waits one that answered all along in full', async () => {
    const timed = async (seenDown: boolean) => {
      const started = Date.now();
      await waitForDatabase(db.url, {
        waitMs: 1_500,
        probeIntervalMs: 50,
        seenDown,
        signal: new AbortController().signal,
      });
      return Date.now() - started;
    };
    expect(await timed(true)).toBeLessThan(1_000);
    expect(await timed(false)).toBeGreaterThanOrEqual(1_500);
  });

  it('ends with the error of any other failure, without retrying', async () => {
    let runs = 0;
    const failing = runResiliently({
      databaseUrl: db.url,
      signal: new AbortController().signal,
      log: () => {},
      run: async () => {
        runs++;
        throw new Error('a bug');
      },
    });
    await expect(failing).rejects.toThrow('a bug');
    expect(runs).toBe(1);
  });
});

describe('runResiliently on a database that is down, then started', () => {
  let dir: string;
  let server: LocalPostgres | undefined;
  let port: number;
  beforeAll(async () => {
    // Under the repo's .data like the test cluster: run as root, the server runs as `postgres`, which cannot enter
    // a private temporary directory of root's.
    dir = path.join(REPO_ROOT, '.data/test-pg', `restart-${process.pid}`);
    port = await freePort();
    server = await startLocalPostgres({ dir: path.join(dir, 'pg'), port, database: 'mirror_node' });
    await migrate(server.url);
    await server.stop();
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('logs the database and the wait while it is down, then ingests once it is up', async () => {
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/mirror_node`;
    const lines: Line[] = [];
    const running = runResiliently({
      databaseUrl: url,
      signal: new AbortController().signal,
      log: (line) => lines.push(line),
      initialWaitMs: 100,
      maxWaitMs: 400,
      run: (client) => ingestV6(client, (line) => lines.push(line)),
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    server = await startLocalPostgres({ dir: path.join(dir, 'pg'), port, database: 'mirror_node' });
    await running;
    const waits = lines.filter((l) => l.msg === 'database unavailable');
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits[0]).toMatchObject({ database: `127.0.0.1:${port}/mirror_node`, waitMs: 100 });
    expect(waits.every((l) => (l.waitMs as number) <= 400)).toBe(true);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'database connected' }));
    expect(await recordFiles(url)).toBe(2);
  });
});

/** The v6 fixtures' record files, by consensus start: the first, and the one after it. */
const V6_FILES = ['2022-07-13T08_46_08.041986003Z', '2022-07-13T08_46_11.304284003Z'];

/** Copies one record file of the v6 fixtures (with its signature files and sidecars, from every node) into `dir`. */
async function publish(dir: string, file: string): Promise<void> {
  const source = path.join(RECORDSTREAMS, 'v6');
  for (const node of await readdir(source)) {
    for (const name of await readdir(path.join(source, node), { recursive: true })) {
      if (!path.basename(name).startsWith(file)) continue;
      await mkdir(path.dirname(path.join(dir, node, name)), { recursive: true });
      await cp(path.join(source, node, name), path.join(dir, node, name));
    }
  }
}

describe('an ingest whose database stops mid-run and starts again', () => {
  let dir: string;
  let server: LocalPostgres | undefined;
  let port: number;
  beforeAll(async () => {
    dir = path.join(REPO_ROOT, '.data/test-pg', `recovery-${process.pid}`);
    port = await freePort();
    server = await startLocalPostgres({ dir: path.join(dir, 'pg'), port, database: 'mirror_node' });
    await migrate(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes its next file within 2 s of the database answering again, however long its backoff has grown', async () => {
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/mirror_node`;
    const streams = path.join(dir, 'streams');
    await publish(streams, V6_FILES[0] as string);
    const lines: (Line & { at: number })[] = [];
    const log = (line: Line) => lines.push({ ...line, at: Date.now() });
    const written = (file: string) =>
      lines.find((line) => line.msg === 'record file ingested' && String(line.file).startsWith(file));
    const until = async (done: () => boolean, withinMs: number) => {
      const deadline = Date.now() + withinMs;
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const stop = new AbortController();
    const running = runResiliently({
      databaseUrl: url,
      signal: stop.signal,
      log,
      secondConnection: true,
      run: (client, secondClient) =>
        runIngest({
          source: new RecordStreamSource(new DirStore(streams)),
          client,
          ...(secondClient ? { secondClient } : {}),
          bootstrapAddressBook: addressBook('test-v6-sidecar-4n.bin'),
          pollIntervalMs: 100,
          prepareThread: false,
          signal: stop.signal,
          log,
        }).then(() => undefined),
    });
    try {
      await until(() => written(V6_FILES[0] as string) !== undefined, 30_000);
      expect(written(V6_FILES[0] as string)).toBeDefined();
      await server?.stop();
      server = undefined;
      await publish(streams, V6_FILES[1] as string);
      // Down long enough for the backoff to reach 8 s (0.5 + 1 + 2 + 4 waited): the database comes back during it.
      await until(() => lines.filter((line) => line.msg === 'database unavailable').length >= 5, 30_000);
      const waits = lines.filter((line) => line.msg === 'database unavailable').map((line) => line.waitMs);
      expect(waits.slice(0, 5)).toEqual([500, 1000, 2000, 4000, 8000]);
      server = await startLocalPostgres({ dir: path.join(dir, 'pg'), port, database: 'mirror_node' });
      const answering = Date.now();
      await until(() => written(V6_FILES[1] as string) !== undefined, 10_000);
      const next = written(V6_FILES[1] as string);
      expect(next, 'the next file').toBeDefined();
      const latencyMs = (next?.at ?? Number.POSITIVE_INFINITY) - answering;
      console.log(`next file written ${latencyMs} ms after the database answered`);
      expect(latencyMs).toBeLessThan(2_000);
    } finally {
      stop.abort();
      await running;
    }
    expect(await recordFiles(url)).toBe(2);
  }, 90_000);
});
