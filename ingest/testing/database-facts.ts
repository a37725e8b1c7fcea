/** Queries the ingest tests use to check what a run wrote. */
import type pg from 'pg';

/**
 * Row counts of every non-empty table the ingest fills from files (not append_only_history, the marker it writes when
 * it starts), for comparing two databases or a database before and after.
 */
export async function rowCounts(sql: pg.ClientBase): Promise<Record<string, number>> {
  const tables = await sql.query<{ relname: string }>(
    `select relname from pg_class where relkind in ('r', 'p') and relnamespace = 'public'::regnamespace
        and not relispartition and relname not like '%migrations%' and relname <> 'append_only_history' order by 1`,
  );
  const out: Record<string, number> = {};
  for (const { relname } of tables.rows) {
    const result = await sql.query<{ n: number }>(`select count(*)::int as n from "${relname}"`);
    const n = result.rows[0]?.n ?? 0;
    if (n > 0) out[relname] = n;
  }
  return out;
}

/** Every row of the tables the ingest writes, ordered, minus the load times that differ between runs. */
export async function tableContents(sql: pg.ClientBase, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const result = await sql.query(`select to_jsonb(t) - 'load_start' - 'load_end' as row from "${table}" t`);
    out[table] = result.rows.map((r) => JSON.stringify(r.row)).sort();
  }
  return out;
}

/** Transactions whose hbar transfers do not sum to zero (ignoring errata rows). */
export async function unbalancedTransactions(sql: pg.ClientBase): Promise<unknown[]> {
  const result = await sql.query(
    `select consensus_timestamp, sum(amount)::text as total from crypto_transfer where errata is null
      group by consensus_timestamp having sum(amount) <> 0`,
  );
  return result.rows;
}

/** Rows of `table` whose timestamp lies in no record file's [consensus_start, consensus_end]. */
export async function rowsOutsideRecordFiles(sql: pg.ClientBase, table: string, column = 'consensus_timestamp') {
  const result = await sql.query(
    `select t.${column}::text from "${table}" t
      where not exists (select 1 from record_file r where t.${column} between r.consensus_start and r.consensus_end)`,
  );
  return result.rows;
}
