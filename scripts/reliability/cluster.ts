/**
 * The reliability run's own PostgreSQL: an embedded cluster under `.data/reliability/<pid>` (never the one
 * `npm start` or the tests use, since this one is stopped and started on purpose), a migrated template database,
 * and fresh databases copied from it.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { type LocalPostgres, startLocalPostgres } from '../../db/local/embedded-postgres.ts';
import { migrate } from '../../db/migrate.ts';
import { tableContents } from '../../ingest/testing/database-facts.ts';
import { freePort } from '../local-stack/free-port.ts';
import { REPO_ROOT } from '../local-stack/worker-process.ts';

const TEMPLATE = 'reliability_template';

export interface Cluster {
  readonly socketDir: string;
  /** A fresh, migrated database; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (every connection to it ends). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  remove(): Promise<void>;
}

export async function startCluster(): Promise<Cluster> {
  // The server runs as its own user when this runs as root: it cannot enter a private temporary directory.
  const dir = path.join(REPO_ROOT, '.data/reliability', String(process.pid));
  await rm(dir, { recursive: true, force: true });
  const port = await freePort();
  let server: LocalPostgres | undefined = await startLocalPostgres({ dir, port, database: TEMPLATE });
  await migrate(server.url);
  const serverUrl = (database: string) => `postgres://postgres:postgres@127.0.0.1:${port}/${database}`;
  return {
    socketDir: server.socketDir,
    async createDatabase(name) {
      await onServer(serverUrl('postgres'), `create database "${name}" template "${TEMPLATE}"`);
      return serverUrl(name);
    },
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async start() {
      server = await startLocalPostgres({ dir, port, database: TEMPLATE });
    },
    async remove() {
      await server?.stop();
      server = undefined;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Every row of every table of a database (minus the load times that differ between runs), by table. */
export async function allTables(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ relname: string }>(
      `select relname from pg_class where relkind in ('r', 'p') and relnamespace = 'public'::regnamespace
          and not relispartition and relname not like '%migrations%' order by 1`,
    );
    return await tableContents(
      client,
      rows.map((r) => r.relname),
    );
  } finally {
    await client.end();
  }
}

/** Names of the tables whose rows differ between two databases' contents. */
export function differingTables(a: Record<string, unknown[]>, b: Record<string, unknown[]>): string[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names.filter((name) => JSON.stringify(a[name] ?? []) !== JSON.stringify(b[name] ?? []));
}
