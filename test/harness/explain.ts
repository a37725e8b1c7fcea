import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { expect } from 'vitest';
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

interface Statement {
  text: string;
  params: unknown[];
}

/** The statements a query function (`(db, args) => Promise<rows>` from db/queries) issues when it sees no rows. */
async function statementsOf(run: (db: Database) => Promise<unknown>): Promise<Statement[]> {
  const statements: Statement[] = [];
  await run({
    async rows<T extends Record<string, unknown>>(query: Parameters<Database['rows']>[0]): Promise<T[]> {
      const { sql: text, params } = dialect.sqlToQuery(query);
      statements.push({ text, params });
      return [];
    },
  });
  return statements;
}

const planIn = (rows: unknown[]): PlanNode =>
  (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan as PlanNode;

/**
 * The plans, in order, of the statements a query function issues, each run with `EXPLAIN (ANALYZE, FORMAT JSON)`
 * against the real database. The function sees no rows, so use it on query functions that issue one statement.
 */
export async function explainQueries(client: pg.Client, run: (db: Database) => Promise<unknown>): Promise<PlanNode[]> {
  const plans: PlanNode[] = [];
  for (const { text, params } of await statementsOf(run)) {
    plans.push(planIn((await client.query(`explain (analyze, format json) ${text}`, params)).rows));
  }
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
  const plans: PlanNode[] = [];
  await client.query('set plan_cache_mode = force_generic_plan');
  try {
    for (const { text, params } of await statementsOf(run)) {
      await client.query(`prepare generic_plan_probe as ${text}`);
      try {
        const args = params.map((value) => client.escapeLiteral(String(value)));
        const execute = `execute generic_plan_probe${args.length > 0 ? `(${args.join(', ')})` : ''}`;
        plans.push(planIn((await client.query(`explain (analyze, format json) ${execute}`)).rows));
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

/** Every node of the plan of the one statement `run` issues, explained as `explainQueries` does. */
export async function planOfStatement(client: pg.Client, run: (db: Database) => Promise<unknown>): Promise<PlanNode[]> {
  const [plan] = await explainQueries(client, run);
  if (!plan) throw new Error('no statement was run');
  return planNodes(plan);
}

/** No table of `bigTables` is read whole, and no node produces more than `maxRows` rows over all its loops. */
export function expectBoundedPlan(plan: PlanNode[], bigTables: readonly string[], maxRows: number): void {
  const seqScans = plan.filter((n) => n['Node Type'] === 'Seq Scan' && bigTables.includes(n['Relation Name'] ?? ''));
  expect(seqScans.map((n) => n['Relation Name'])).toEqual([]);
  const rows = plan.map((n) => (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1));
  expect(Math.max(...rows)).toBeLessThanOrEqual(maxRows);
}
