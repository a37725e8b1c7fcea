/**
 * Column names and types of the target tables, read from the database itself so that rows only name
 * columns and the schema (the reference's, via db/migrations) stays the single source of types.
 */
import type pg from 'pg';
import type { ColumnKind } from './copy-binary.ts';

export interface ColumnInfo {
  readonly name: string;
  /** As `format_type` spells it: `bigint`, `bytea`, `entity_id`, `bigint[]`, `int8range`, … */
  readonly type: string;
  /** NOT NULL without a default: a new row must name it. */
  readonly required: boolean;
  /** json or jsonb: values are written as JSON text. */
  readonly json: boolean;
  /** How COPY's binary format writes it (copy-binary.ts). */
  readonly kind: ColumnKind;
}

/** The kind of a base type (a domain's base, by `pg_type.typname`); enums are text. */
function kindOf(baseName: string, isEnum: boolean): ColumnKind {
  if (isEnum) return 'text';
  switch (baseName) {
    case 'int8':
    case 'int4':
    case 'int2':
    case 'bool':
    case 'bytea':
    case 'text':
    case 'json':
    case 'jsonb':
      return baseName;
    case 'varchar':
      return 'text';
    case '_int8':
      return 'int8[]';
    case '_bytea':
      return 'bytea[]';
    default:
      return 'other';
  }
}

export class TableSchema {
  private readonly tables: ReadonlyMap<string, readonly ColumnInfo[]>;
  private kinds: ReadonlyMap<string, ColumnKind> | undefined;

  private constructor(tables: ReadonlyMap<string, readonly ColumnInfo[]>) {
    this.tables = tables;
  }

  static async load(client: pg.ClientBase): Promise<TableSchema> {
    const result = await client.query<{
      table: string;
      name: string;
      type: string;
      required: boolean;
      base: string;
      enum: boolean;
    }>(
      `select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
              a.attnotnull and not a.atthasdef as required, b.typname as base, b.typtype = 'e' as enum
         from pg_attribute a join pg_class c on c.oid = a.attrelid
         join pg_type t on t.oid = a.atttypid
         join pg_type b on b.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
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
        kind: kindOf(row.base, row.enum),
      });
      tables.set(row.table, list);
    }
    return new TableSchema(tables);
  }

  /** A TableSchema that crossed a thread (structured clone keeps the data, not the class). */
  static revive(data: TableSchema): TableSchema {
    return Object.setPrototypeOf(data, TableSchema.prototype) as TableSchema;
  }

  columns(table: string): readonly ColumnInfo[] {
    const columns = this.tables.get(table);
    if (!columns) throw new Error(`unknown table ${table}`);
    return columns;
  }

  /** The kind of every `table.column`, for COPY data built away from the database (copy-text.ts). */
  columnKinds(): ReadonlyMap<string, ColumnKind> {
    if (this.kinds) return this.kinds;
    const out = new Map<string, ColumnKind>();
    for (const [table, columns] of this.tables) for (const c of columns) out.set(`${table}.${c.name}`, c.kind);
    this.kinds = out;
    return out;
  }

  column(table: string, name: string): ColumnInfo {
    const column = this.columns(table).find((c) => c.name === name);
    if (!column) throw new Error(`unknown column ${table}.${name}`);
    return column;
  }
}
