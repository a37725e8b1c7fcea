import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { startTestWorker, type TestWorker } from './test-worker.ts';

export interface WorkerSuiteOptions {
  /** Fills the fresh database; runs before the Worker starts, so no request can see it half-filled. */
  seed?: (db: TestDatabase) => Promise<void>;
  /** Milliseconds the database is away from the Worker: every round trip waits that long (sql-proxy.ts). */
  dbDelayMs?: number;
  /** More vars for the Worker (settings as `HIERO_MIRROR_*` variables, read by Durable Objects too). */
  vars?: Record<string, string>;
  /** Time limit of the whole setup (database, seed, Worker) when the config's hookTimeout is too short. */
  timeout?: number;
}

/**
 * Registers in the current suite (the file, or the `describe` it is called in) a `beforeAll` that creates a test
 * database, runs `seed` on it and starts the Worker on it, and an `afterAll` that stops the Worker and then drops the
 * database, whichever of the two setup got to make. The suite's own hooks registered after this call run after the
 * setup and before the teardown (vitest's default `sequence.hooks: 'stack'`).
 *
 * The returned `db` and `worker` stand in for the ones setup makes: every property read goes to the real one, so
 * they can be destructured at module level, before setup has run, and used in hooks and tests.
 */
export function registerWorkerSuite(options: WorkerSuiteOptions = {}): { db: TestDatabase; worker: TestWorker } {
  let db: TestDatabase | undefined;
  let worker: TestWorker | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    await options.seed?.(db);
    worker = await startTestWorker(db.url, { dbDelayMs: options.dbDelayMs, vars: options.vars });
  }, options.timeout);
  afterAll(async () => {
    await worker?.stop();
    await db?.drop();
  });
  return { db: forwarding('database', () => db), worker: forwarding('Worker', () => worker) };
}

/** An object whose every property is read from `current()` at the time of the read. */
function forwarding<T extends object>(name: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, property) {
      const target = current();
      if (!target) throw new Error(`no test ${name}: the suite's setup has not run or failed`);
      // the target as receiver: getters such as the Worker's dbQueries read the real object
      return Reflect.get(target, property, target);
    },
  });
}
