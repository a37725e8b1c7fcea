/**
 * Column names and types of the target tables, read from the database itself so that rows only name
 * columns and the schema (the reference's, via db/migrations) stays the single source of types.
 */
import type pg from 'pg';

export interface ColumnInfo {
  readonly name: string;
  /** As `format_type` spells it: `bigint`, `bytea`, `entity_id`, `bigint[]`, `int8range`, … */
  readonly type: string;
  /** NOT NULL without a default: a new row must name it. */
  readonly required: boolean;
  /** json or jsonb: values are written as JSON text. */
  readonly json: boolean;
}

export class TableSchema {
  private readonly tables: ReadonlyMap<string, readonly ColumnInfo[]>;

  private constructor(tables: ReadonlyMap<string, readonly ColumnInfo[]>) {
    this.tables = tables;
  }

  static async load(client: pg.ClientBase): Promise<TableSchema> {
    const result = await client.query<{ table: string; name: string; type: string; required: boolean }>(
      `select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
              a.attnotnull and not a.atthasdef as required
         from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
          and a.attnum > 0 and not a.attisdropped and not c.relispartition
        order by c.relname, a.attnum`,
    );
    const tables = new Map<string, ColumnInfo[]>();
    for (const row of result.rows) {
      const list = tables.get(row.table) ?? [];
      list.push({
        name: row.name,
        type: row.type.replace(/^character varying\(\d+\)$/, 'varchar'),
        required: row.required,
        json: row.type === 'json' || row.type === 'jsonb',
      });
      tables.set(row.table, list);
    }
    return new TableSchema(tables);
  }

  columns(table: string): readonly ColumnInfo[] {
    const columns = this.tables.get(table);
    if (!columns) throw new Error(`unknown table ${table}`);
    return columns;
  }

  /** `table.column` of every json and jsonb column. */
  jsonColumns(): Set<string> {
    const out = new Set<string>();
    for (const [table, columns] of this.tables) {
      for (const c of columns) if (c.json) out.add(`${table}.${c.name}`);
    }
    return out;
  }

  column(table: string, name: string): ColumnInfo {
    const column = this.columns(table).find((c) => c.name === name);
    if (!column) throw new Error(`unknown column ${table}.${name}`);
    return column;
  }
}
