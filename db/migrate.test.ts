import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test/harness/shared-dir.ts';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { migrate } from './migrate.ts';
import * as schema from './schema/index.ts';

/** The parts of test/data/conformance/schema.json these tests compare against. */
interface ReferenceSchema {
  types: { enums: Record<string, string[]>; domains: Record<string, string> };
  tables: Record<string, ReferenceTable>;
  functions: Record<string, { returns: string; language: string }>;
}

interface ReferenceTable {
  columns: { name: string; type: string; nullable: boolean; default: string | null }[];
  primary_key: string[];
  indexes: string[];
  partitioned_by?: string | null;
}

const reference: ReferenceSchema = JSON.parse(readFileSync(path.join(sharedDir(), 'conformance/schema.json'), 'utf8'));

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/**
 * Indexes this project adds beyond the reference's, by table, each for a query the reference's indexes serve badly
 * (the migration that creates it says which). Everything else must match the reference exactly.
 */
const OWN_INDEXES: Record<string, string[]> = {
  schedule: ['CREATE INDEX schedule__expiration_time ON schedule USING btree (expiration_time)'],
  token_airdrop_history: [
    'CREATE INDEX token_airdrop_history__sender_id ON token_airdrop_history USING btree (sender_account_id, receiver_account_id, token_id, serial_number)',
  ],
  token_balance: [
    'CREATE INDEX token_balance__account_timestamp ON ONLY token_balance USING btree (account_id, consensus_timestamp)',
  ],
};

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await db.sql.query(text, values)).rows as T[];
}

/** pg_get_indexdef qualifies names with the schema; the reference's dump does not. */
const normaliseIndex = (definition: string) => definition.replaceAll('public.', '');

describe('the migrated database', () => {
  it.for(Object.keys(reference.tables).sort())('has table %s as the reference defines it', async (table) => {
    const expected = reference.tables[table];
    if (!expected) throw new Error(`no table ${table}`);

    const columns = await rows<ReferenceTable['columns'][number]>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
              pg_get_expr(d.adbin, d.adrelid) as default
         from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
        order by a.attnum`,
      [`public.${table}`],
    );
    expect(columns).toEqual(expected.columns);

    const [primaryKey] = await rows<{ columns: string[] }>(
      `select array_agg(a.attname order by k.ord)::text[] as columns
         from pg_constraint c, unnest(c.conkey) with ordinality k(attnum, ord), pg_attribute a
        where c.conrelid = $1::regclass and c.contype = 'p' and a.attrelid = c.conrelid and a.attnum = k.attnum`,
      [`public.${table}`],
    );
    expect(primaryKey?.columns ?? []).toEqual(expected.primary_key);

    const indexes = await rows<{ definition: string }>(
      'select pg_get_indexdef(indexrelid) as definition from pg_index where indrelid = $1::regclass',
      [`public.${table}`],
    );
    expect(indexes.map((index) => normaliseIndex(index.definition)).sort()).toEqual(
      [...expected.indexes, ...(OWN_INDEXES[table] ?? [])].sort(),
    );

    const [partitioning] = await rows<{ key: string | null }>('select pg_get_partkeydef($1::regclass) as key', [
      `public.${table}`,
    ]);
    expect(partitioning?.key ?? null).toEqual(expected.partitioned_by ?? null);
  });

  it('has the reference enum types with their labels in order', async () => {
    const enums = await rows<{ name: string; labels: string[] }>(
      `select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as labels
         from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'public' group by t.typname`,
    );
    expect(Object.fromEntries(enums.map((e) => [e.name, e.labels]))).toEqual(reference.types.enums);
  });

  it('has the reference domains over the same base types', async () => {
    const domains = await rows<{ name: string; base: string }>(
      `select t.typname as name, format_type(t.typbasetype, t.typtypmod) as base
         from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'public' and t.typtype = 'd'`,
    );
    expect(Object.fromEntries(domains.map((d) => [d.name, d.base]))).toEqual(reference.types.domains);
  });

  it('has the reference functions with the same result type and language', async () => {
    for (const [signature, expected] of Object.entries(reference.functions)) {
      const [found] = await rows<{ returns: string; language: string }>(
        `select pg_get_function_result(p.oid) as returns, l.lanname as language
           from pg_proc p join pg_language l on l.oid = p.prolang where p.oid = $1::regprocedure`,
        [signature],
      );
      expect(found, signature).toEqual({ returns: expected.returns, language: expected.language });
    }
  });
});

describe('get_transaction_info_by_hash', () => {
  const hash = Uint8Array.from({ length: 48 }, (_, i) => (i * 7 + 0xc5) & 0xff);
  const prefix = hash.subarray(0, 32);

  beforeAll(async () => {
    await db.sql.query(
      'insert into transaction_hash (consensus_timestamp, hash, payer_account_id, hash_suffix) values ($1, $2, $3, $4)',
      ['1680000000000000001', Buffer.from(prefix), '1001', Buffer.from(hash.subarray(32))],
    );
  });

  it('stores a hash in the partition of its first byte', async () => {
    const found = await rows<{ partition: string }>(
      'select tableoid::regclass::text as partition from transaction_hash where consensus_timestamp = $1',
      ['1680000000000000001'],
    );
    expect(found).toEqual([{ partition: `transaction_hash_${String((hash[0] ?? 0) % 32).padStart(2, '0')}` }]);
  });

  it('returns the full 48-byte hash for the first 32 bytes of a stored hash', async () => {
    const found = await rows<{ consensus_timestamp: string; hash: Buffer; payer_account_id: string }>(
      'select * from get_transaction_info_by_hash($1)',
      [Buffer.from(prefix)],
    );
    expect(found).toEqual([
      { consensus_timestamp: '1680000000000000001', hash: Buffer.from(hash), payer_account_id: '1001' },
    ]);
  });

  it('returns nothing for a hash that is not stored', async () => {
    const unknown = Buffer.from(prefix);
    unknown[31] = (unknown[31] ?? 0) ^ 0xff;
    expect(await rows('select * from get_transaction_info_by_hash($1)', [unknown])).toEqual([]);
  });
});

describe('the balance tables', () => {
  const timestamps = ['-1', '0', '1680000000000000000', '9223372036854775807'];

  it.for(['account_balance', 'token_balance'])('%s accepts rows at any timestamp', async (table) => {
    await db.sql.query('begin');
    try {
      for (const timestamp of timestamps) {
        await db.sql.query(
          table === 'account_balance'
            ? 'insert into account_balance (consensus_timestamp, balance, account_id) values ($1, 10, 2)'
            : 'insert into token_balance (consensus_timestamp, balance, account_id, token_id) values ($1, 10, 2, 3)',
          [timestamp],
        );
      }
      const stored = await rows<{ consensus_timestamp: string }>(
        `select consensus_timestamp from ${table} order by consensus_timestamp`,
      );
      expect(stored.map((row) => row.consensus_timestamp)).toEqual(timestamps);
    } finally {
      await db.sql.query('rollback');
    }
  });
});

describe('migrations', () => {
  it('applying them again to a migrated database changes nothing', async () => {
    const count = async () => (await rows<{ count: string }>('select count(*) from drizzle.__drizzle_migrations'))[0];
    const before = await count();
    await migrate(db.url);
    expect(await count()).toEqual(before);
  });

  it('the drizzle schema matches the last migration snapshot, so drizzle-kit generate has nothing to emit', async () => {
    const journal: { entries: { idx: number }[] } = JSON.parse(
      readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'),
    );
    const last = journal.entries.at(-1)?.idx ?? 0;
    const snapshot = JSON.parse(
      readFileSync(path.join(MIGRATIONS_DIR, `meta/${String(last).padStart(4, '0')}_snapshot.json`), 'utf8'),
    );
    const current = generateDrizzleJson(schema, snapshot.id);
    expect(await generateMigration(snapshot, current)).toEqual([]);
  });
});
