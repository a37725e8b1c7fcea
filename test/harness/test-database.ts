import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

/** The migrated database the global setup prepares; every test database is a copy of it. */
export const TEMPLATE_DATABASE = 'template_mirror';

export interface TestDatabase {
  /** postgres:// URL of this database. */
  readonly url: string;
  /** A client connected to this database. */
  readonly sql: pg.Client;
  /** Closes `sql` and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates a fresh, fully migrated database for one test file: a copy of the template, which takes milliseconds
 * where migrating would take a second.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('pgUrl');
  const name = `t_${randomBytes(8).toString('hex')}`;
  await onServer(serverUrl, `create database ${name} template ${TEMPLATE_DATABASE}`);
  await copyDatabaseSettings(serverUrl, TEMPLATE_DATABASE, name);
  const url = databaseUrl(serverUrl, name);
  const sql = new pg.Client({ connectionString: url });
  try {
    await sql.connect();
  } catch (error) {
    await onServer(serverUrl, `drop database if exists ${name}`);
    throw error;
  }
  return {
    url,
    sql,
    async drop() {
      await sql.end();
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * A fresh database (createTestDatabase) for the tests of the file or `describe` block that calls this: created before
 * they run, dropped after. Its fields are there from the first test or hook on.
 */
export function useTestDatabase(): Pick<TestDatabase, 'url' | 'sql'> {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });
  const created = () => {
    if (!db) throw new Error('the test database exists from the first test or hook on');
    return db;
  };
  return {
    get url() {
      return created().url;
    },
    get sql() {
      return created().sql;
    },
  };
}

/** The URL of `database` on the server that `serverUrl` points at. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}

/**
 * A copy made from a template does not inherit the template's `alter database … set` settings (they belong to the
 * database's oid, not its contents), and the migrations put the planner's settings there.
 */
async function copyDatabaseSettings(serverUrl: string, from: string, to: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ setting: string }>(
      `select unnest(s.setconfig) as setting
         from pg_db_role_setting s join pg_database d on d.oid = s.setdatabase
        where d.datname = $1 and s.setrole = 0`,
      [from],
    );
    for (const { setting } of rows) {
      const equals = setting.indexOf('=');
      const name = setting.slice(0, equals);
      const value = setting.slice(equals + 1);
      await client.query(
        `alter database ${client.escapeIdentifier(to)} set ${client.escapeIdentifier(name)} = ${client.escapeLiteral(value)}`,
      );
    }
  } finally {
    await client.end();
  }
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
