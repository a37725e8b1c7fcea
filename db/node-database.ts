import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Database } from './client.ts';
import { DatabaseError } from './database-error.ts';

const dialect = new PgDialect();

/**
 * A node-postgres pool or client as the query functions see a database, for the processes that run in Node and hold
 * their own connections (the gRPC server, tests): the same statements the Worker sends over SQL-over-HTTP. Column
 * values come back as node-postgres decodes them, which matches the Worker's driver: int8 as strings, bytea as bytes.
 */
export function databaseOnNodePg(client: pg.Pool | pg.Client): Database {
  return {
    async rows<T extends Record<string, unknown>>(query: Parameters<Database['rows']>[0]): Promise<T[]> {
      const { sql: text, params } = dialect.sqlToQuery(query);
      try {
        return (await client.query(text, params)).rows as T[];
      } catch (error) {
        throw new DatabaseError(error);
      }
    },
  };
}
