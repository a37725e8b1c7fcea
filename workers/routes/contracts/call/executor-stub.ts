import type { Context } from 'hono';
import type { AppEnv } from '../../../context.ts';
import { nearDatabase } from '../../../durable/location-hint.ts';
import { callClient, executorName, executorShard } from './shard.ts';

/** The EvmExecutor stub of the request's client (its shard), placed near the database. */
export function executorStub(c: Context<AppEnv>) {
  const namespace = c.env.EVM_EXECUTOR;
  const shard = executorShard(callClient((name) => c.req.header(name)));
  return namespace.get(namespace.idFromName(executorName(shard)), nearDatabase(c.env.DATABASE_LOCATION_HINT));
}
