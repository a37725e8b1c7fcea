import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { textArray } from './sql-text.ts';

/** node-postgres's own serialisation of a parameter (what `client.query` sends for it). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(v: unknown): string };

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('textArray', () => {
  const values = ['1', '', 'a"b', 'back\\slash', '{brace}', 'comma,', 'NULL', null, '\\x00ff', 'ünï', ' spaced '];

  it('is the literal node-postgres sends for the same JavaScript array', () => {
    expect(textArray(values)).toBe(prepareValue(values));
  });

  it('reads back as the same values, NULL apart from the string "NULL"', async () => {
    const { rows } = await db.sql.query<{ back: (string | null)[] }>('select $1::text[] as back', [textArray(values)]);
    expect(rows[0]?.back).toEqual(values);
  });

  it('spells an empty array', () => {
    expect(textArray([])).toBe('{}');
  });
});
