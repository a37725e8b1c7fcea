import { Client, types } from '@neondatabase/serverless';
import type { SQL } from 'drizzle-orm';
import { drizzle, type NeonDatabase } from 'drizzle-orm/neon-serverless';
import { PgDialect } from 'drizzle-orm/pg-core';
import { parseJsonExact } from './json-exact.ts';

const dialect = new PgDialect();
const JSON_TYPE_OIDS = new Set([114, 3802]);

/** The driver's default parsers, but json and jsonb keep integers beyond 2^53 exact. */
const typeParsers = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    JSON_TYPE_OIDS.has(oid) ? parseJsonExact : types.getTypeParser(oid, format),
};

export interface DatabaseSettings {
  /** postgres://… of the database (Neon in production, the local embedded Postgres in development). */
  url: string;
  /**
   * `host:port` of a WebSocket-to-TCP proxy in front of a plain Postgres (`db/local/ws-proxy.ts`). Absent for
   * Neon, whose endpoints speak WebSocket themselves.
   */
  wsProxy?: string;
}

export interface Database {
  /** drizzle over this connection, for the query builder. */
  readonly orm: NeonDatabase;
  /** Runs one statement. Column values come back as the driver decodes them: int8 and numeric as strings. */
  rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]>;
  /** Ends the connection if one was opened. */
  close(): Promise<void>;
}

/**
 * One connection per request, opened on the first query: a Worker cannot keep sockets across requests, and a
 * request answered from the edge cache or rejected by validation opens none.
 */
export function createDatabase(settings: DatabaseSettings): Database {
  const client = new Client({ connectionString: settings.url, types: typeParsers });
  const proxy = settings.wsProxy;
  if (proxy) {
    client.neonConfig.wsProxy = (host, port) => `${proxy}/v2?address=${host}:${port}`;
    client.neonConfig.useSecureWebSocket = false;
    client.neonConfig.pipelineTLS = false;
    client.neonConfig.pipelineConnect = false;
  }
  const orm = drizzle(client);
  let connecting: Promise<void> | undefined;
  const ready = () => {
    connecting ??= client.connect();
    return connecting;
  };
  return {
    orm,
    async rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]> {
      await ready();
      // Straight to the driver: drizzle's session would replace the json parsers for the query.
      const { sql: text, params } = dialect.sqlToQuery(query);
      const result = await client.query({ text, values: params, types: typeParsers });
      return result.rows as T[];
    },
    async close() {
      if (connecting) await connecting.then(() => client.end()).catch(() => {});
    },
  };
}
