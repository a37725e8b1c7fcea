/**
 * A write built away from the connection: its text and its parameters, already in the text form Postgres parses
 * (arrays as literals, sql-text.ts), so that building it can happen on the thread that derives a file while the
 * writing thread keeps Postgres busy with the previous one.
 */
import type pg from 'pg';

export interface Statement {
  readonly text: string;
  readonly values: readonly string[];
}

/** Runs statements one after another, in order, on the caller's transaction. */
export async function runStatements(client: pg.ClientBase, statements: readonly Statement[]): Promise<void> {
  for (const { text, values } of statements) await client.query(text, values as string[]);
}
