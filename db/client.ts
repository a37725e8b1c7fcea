import { neon, neonConfig, types } from '@neondatabase/serverless';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { parseBytea } from './bytea.ts';
import { DatabaseError } from './database-error.ts';
import { parseJsonExact } from './json-exact.ts';
import { clampInt8 } from './queries/int8.ts';

export interface DatabaseSettings {
  /** postgres://… of the database (Neon in production, the local embedded Postgres in development). */
  url: string;
  /**
   * `host:port` of the local SQL-over-HTTP proxy in front of a plain Postgres (`db/local/sql-proxy.ts`). Absent
   * for Neon, whose endpoints serve the protocol themselves.
   */
  localProxy?: string;
}

export interface Database {
  /**
   * Runs one statement. Column values come back as the driver decodes them: int8 and numeric as strings. A
   * statement that fails, or a database that cannot be reached, rejects with a `DatabaseError`.
   */
  rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]>;
}

const dialect = new PgDialect();
const BYTEA_OID = 17;
const JSON_OIDS = new Set([114, 3802]);

/** The driver's default parsers, but json and jsonb keep integers beyond 2^53 exact, and bytea is decoded faster. */
const typeParsers = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => {
    if (oid === BYTEA_OID) return parseBytea;
    return JSON_OIDS.has(oid) ? parseJsonExact : types.getTypeParser(oid, format);
  },
};

interface FullResult {
  fields: { name: string }[];
  rows: unknown[][];
}

/**
 * Rows as objects keyed by column name. The driver's own object mode builds each row from an array of pairs; in
 * array mode it hands over the parsed values, and a row is filled in place.
 */
function rowObjects<T>(result: FullResult): T[] {
  const names = result.fields.map((field) => field.name);
  return result.rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row as T;
  });
}

/**
 * The connection string with `application_name=edge-mirror` unless it names one: Postgres shows it in
 * pg_stat_activity. The driver adds its own name to every statement's connection string that has none, one more
 * URL edit per statement.
 */
function withApplicationName(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // the driver reports it, with its own message
  }
  if (parsed.searchParams.has('application_name')) return url;
  parsed.searchParams.set('application_name', 'edge-mirror');
  return parsed.href;
}

/** One client per database and proxy: it holds no connection or other I/O, so every request of an isolate shares it. */
const clients = new Map<string, Database>();

/**
 * Statements go over Neon's SQL-over-HTTP protocol: one request each, on connections pooled by the server (Neon's
 * proxy, or ours locally), so a Worker request pays no connection setup and opens nothing it must close.
 * See docs/adr/0001-database-driver.md.
 */
export function createDatabase(settings: DatabaseSettings): Database {
  const key = `${settings.localProxy ?? ''} ${settings.url}`;
  let client = clients.get(key);
  if (!client) {
    client = connect(settings);
    clients.set(key, client);
  }
  return client;
}

function connect(settings: DatabaseSettings): Database {
  const proxy = settings.localProxy;
  if (proxy) neonConfig.fetchEndpoint = () => `http://${proxy}/sql`;
  const sql = neon(withApplicationName(settings.url));
  return {
    async rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]> {
      const { sql: text, params } = dialect.sqlToQuery(query);
      // A bigint parameter is an int8 value or a bound on one: beyond the int8 range it would fail the statement.
      const bound = params.map((param) => (typeof param === 'bigint' ? clampInt8(param) : param));
      let result: unknown;
      try {
        result = await sql.query(text, bound, { arrayMode: true, fullResults: true, types: typeParsers });
      } catch (error) {
        throw new DatabaseError(error);
      }
      return rowObjects<T>(result as FullResult);
    },
  };
}
