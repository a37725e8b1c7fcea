import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startLocalPostgres } from '../../db/local/embedded-postgres.ts';
import { migrate } from '../../db/migrate.ts';
import { freePort } from '../../scripts/local-stack/free-port.ts';
import { databaseUrl, TEMPLATE_DATABASE } from './test-database.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** postgres:// URL of the test run's server (its `postgres` database); see createTestDatabase. */
    pgUrl: string;
    /** The directory of that server's Unix socket, for the SQL proxy (`proxyTarget`). */
    pgSocketDir: string;
  }
}

/** Each run gets its own cluster below this directory, so that several runs in one tree do not collide. */
const CLUSTERS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.data/test-pg');

/**
 * vitest globalSetup: one embedded Postgres for the whole run, with the migrated template database that
 * createTestDatabase copies. The cluster is deleted on teardown.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await removeAbandonedClusters();
  const dir = path.join(CLUSTERS_DIR, String(process.pid));
  await rm(dir, { recursive: true, force: true });
  const server = await startLocalPostgres({ dir, port: await freePort(), database: TEMPLATE_DATABASE });
  const teardown = async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await migrate(server.url);
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('pgUrl', databaseUrl(server.url, 'postgres'));
  project.provide('pgSocketDir', server.socketDir);
  return teardown;
}

/** Clusters left behind by runs that were killed: neither their test run nor their server is alive. */
async function removeAbandonedClusters(): Promise<void> {
  const entries = await readdir(CLUSTERS_DIR).catch(() => []);
  for (const entry of entries) {
    const dir = path.join(CLUSTERS_DIR, entry);
    if (!/^\d+$/.test(entry) || isAlive(Number(entry))) continue;
    const postmasterPid = await readFile(path.join(dir, 'postmaster.pid'), 'utf8').then(
      (text) => Number(text.split('\n')[0]),
      () => undefined,
    );
    if (postmasterPid !== undefined && isAlive(postmasterPid)) continue;
    await rm(dir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
