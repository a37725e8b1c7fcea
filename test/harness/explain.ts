import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Database } from '../../db/client.ts';

const dialect = new PgDialect();

/** A node of a Postgres `EXPLAIN (FORMAT JSON)` plan. */
export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/**
 * Runs a query function (`(db, args) => Promise<rows>` from db/queries) against the real database with each of its
 * statements prefixed by `EXPLAIN (ANALYZE, FORMAT JSON)`, and returns the plans in order. The function sees no
 * rows, so use it on query functions that issue one statement.
 */
export async function explainQueries(client: pg.Client, run: (db: Database) => Promise<unknown>): Promise<PlanNode[]> {
  const plans: PlanNode[] = [];
  // Cast: only `rows` is used; the rest of the interface is not needed to explain a statement.
  const db = {
    get orm(): never {
      throw new Error('explainQueries runs raw statements only');
    },
    async rows<T extends Record<string, unknown>>(query: Parameters<Database['rows']>[0]): Promise<T[]> {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const { rows } = await client.query(`explain (analyze, format json) ${text}`, params);
      plans.push((rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan as PlanNode);
      return [];
    },
  };
  await run(db);
  return plans;
}

/**
 * Like `explainQueries`, but each statement is prepared and explained with the plan Postgres makes for all its
 * executions (`plan_cache_mode = force_generic_plan`): the plan a prepared statement may settle on after five
 * executions, which knows nothing of the parameters' values.
 */
export async function explainGenericQueries(
  client: pg.Client,
  run: (db: Database) => Promise<unknown>,
): Promise<PlanNode[]> {
  const statements: { text: string; params: unknown[] }[] = [];
  const db = {
    async rows<T extends Record<string, unknown>>(query: Parameters<Database['rows']>[0]): Promise<T[]> {
      const { sql: text, params } = dialect.sqlToQuery(query);
      statements.push({ text, params });
      return [];
    },
  };
  await run(db);
  const plans: PlanNode[] = [];
  await client.query('set plan_cache_mode = force_generic_plan');
  try {
    for (const { text, params } of statements) {
      await client.query(`prepare generic_plan_probe as ${text}`);
      try {
        const args = params.map((value) => client.escapeLiteral(String(value)));
        const execute =
          args.length > 0 ? `execute generic_plan_probe(${args.join(', ')})` : 'execute generic_plan_probe';
        const { rows } = await client.query(`explain (analyze, format json) ${execute}`);
        plans.push((rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan as PlanNode);
      } finally {
        await client.query('deallocate generic_plan_probe');
      }
    }
  } finally {
    await client.query('reset plan_cache_mode');
  }
  return plans;
}

/** Every node of a plan, depth first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}
