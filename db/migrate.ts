import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as applyMigrations } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { answerHelp } from '../common/cli-help.ts';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any fixed key: it only has to be the same for every migrator of one database. */
const MIGRATION_LOCK = 7_361_204_918;

/** Applies the migrations in db/migrations that the database has not seen yet; a no-op when it is current. */
export async function migrate(databaseUrl: string): Promise<void> {
  await migrateCounting(databaseUrl);
}

/** Returns how many migrations this call applied and how many the database has in total afterwards. */
async function migrateCounting(databaseUrl: string): Promise<{ applied: number; total: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Two processes starting at once (npm start and a test run, say) must not both apply the same migration.
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const before = await countApplied(client);
    await applyMigrations(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    const total = await countApplied(client);
    return { applied: total - before, total };
  } finally {
    // Ending the session also releases the advisory lock.
    await client.end();
  }
}

async function countApplied(client: pg.Client): Promise<number> {
  const table = await client.query<{ exists: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as exists",
  );
  if (!table.rows[0]?.exists) return 0;
  const result = await client.query<{ count: string }>('select count(*) from drizzle.__drizzle_migrations');
  return Number(result.rows[0]?.count ?? 0);
}

async function main(): Promise<void> {
  answerHelp(
    process.argv.slice(2),
    'usage: DATABASE_URL=postgres://… npm run db:migrate\n\nApplies db/migrations to the database DATABASE_URL names.',
  );
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('DATABASE_URL is not set: give the postgres:// URL of the database to migrate.');
    process.exitCode = 2;
    return;
  }
  const { applied, total } = await migrateCounting(databaseUrl);
  const { host, pathname } = new URL(databaseUrl);
  console.log(`${host}${pathname}: applied ${applied} new migration(s), ${total} in total`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
