/**
 * What sessions share within an isolate (or Durable Object): bytecode, and the latest state for a moment. A
 * caller that wraps the database per request (a deadline, say) passes one `EvmCaches` for all its requests;
 * without it, sessions share the caches of the database client they are given.
 */
import type { Database } from '../../db/client.ts';
import { BytecodeCache } from './bytecode-cache.ts';
import { createLatestCaches, type LatestCaches } from './latest-cache.ts';

export interface EvmCaches {
  readonly bytecode: BytecodeCache;
  readonly latest: LatestCaches;
}

export function createEvmCaches(): EvmCaches {
  return { bytecode: new BytecodeCache(), latest: createLatestCaches() };
}

const byDatabase = new WeakMap<Database, EvmCaches>();

/** The caches of a database client: clients are made once per isolate and database (db/client.ts). */
export function evmCachesOf(db: Database): EvmCaches {
  let caches = byDatabase.get(db);
  if (!caches) {
    caches = createEvmCaches();
    byDatabase.set(db, caches);
  }
  return caches;
}
