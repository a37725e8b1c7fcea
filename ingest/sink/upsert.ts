/**
 * The one upsert shape every merge-style write uses: rows naming only the columns they change update the
 * existing row (a null keeps the current value unless the column is overwritten) and insert a new row only
 * when they name every NOT NULL column the table has no default for. A partial update of a row that does not
 * exist (an entity created before the data starts) is skipped, as the reference does.
 *
 * Postgres checks NOT NULL before ON CONFLICT, so a partial row cannot go through `insert … on conflict do
 * update`; instead one statement updates the rows that exist and inserts the others:
 * `with i as (…), [moved as (insert into <table>_history …),] updated as (update … returning key)
 *  insert … from i left join updated … where … is null` (an anti-join the planner can hash). Every sub-statement sees the table as it was before the statement.
 */
import { columnArrays, columnNames, type Row } from './bulk-insert.ts';
import type { TableSchema } from './schema.ts';
import { textArray } from './sql-text.ts';
import type { Statement } from './statement.ts';

export interface UpsertSpec {
  readonly table: string;
  readonly key: readonly string[];
  /** Columns whose existing value wins (created_timestamp…). */
  readonly keepExisting: readonly string[];
  /** Columns set even to null. */
  readonly overwrite: readonly string[];
  /**
   * History tables: each row carries a timestamp `ts`; with `history` the current row moves to
   * `<table>_history` closed at `ts` and the new range starts at `ts`; without, the range is kept (new rows
   * start at `ts`).
   */
  readonly range?: { readonly history: boolean };
  /** A boolean column: a row whose current value has it true is left as it is (and nothing is inserted for it). */
  readonly unless?: string;
  /** Only rows that exist are changed (the importer's in-place upserts join the existing row). */
  readonly updateOnly?: boolean;
}

export interface UpsertRow {
  readonly row: Row;
  readonly timestamp?: bigint;
}

/** The statement that upserts `rows` (at least one). */
export function upsertStatement(schema: TableSchema, spec: UpsertSpec, rows: readonly UpsertRow[]): Statement {
  const table = `"${spec.table}"`;
  const names = columnNames(rows.map((r) => r.row)).filter((n) => n !== 'timestamp_range');
  for (const key of spec.key) if (!names.includes(key)) throw new Error(`${spec.table} upsert without ${key}`);
  const { columns, arrays } = columnArrays(
    schema,
    spec.table,
    rows.map((r) => r.row),
    names,
  );
  const required = schema
    .columns(spec.table)
    .filter((c) => c.required && c.name !== 'timestamp_range')
    .map((c) => c.name);
  // Insertable: the row names every required column (a range is built from `ts` for history tables).
  arrays.push(
    rows.map((r) =>
      !spec.updateOnly && required.every((c) => r.row[c] !== undefined && r.row[c] !== null) ? 't' : 'f',
    ),
  );
  if (spec.range) arrays.push(rows.map((r) => (r.timestamp ?? 0n).toString()));

  const select = columns.map((c, i) => `u.c${i}::${c.type} as "${c.name}"`);
  const aliases = columns.map((_, i) => `c${i}`);
  select.push('u.insertable::boolean as insertable');
  aliases.push('insertable');
  if (spec.range) {
    select.push('u.ts::bigint as ts');
    aliases.push('ts');
  }
  const params = arrays.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const join = `${spec.key.map((k) => `t."${k}" = i."${k}"`).join(' and ')}${spec.unless ? ` and t."${spec.unless}" is not true` : ''}`;
  const sets = columns
    .filter((c) => !spec.key.includes(c.name))
    .map((c) =>
      spec.overwrite.includes(c.name)
        ? `"${c.name}" = i."${c.name}"`
        : spec.keepExisting.includes(c.name)
          ? `"${c.name}" = coalesce(t."${c.name}", i."${c.name}")`
          : `"${c.name}" = coalesce(i."${c.name}", t."${c.name}")`,
    );
  if (spec.range?.history) sets.push('timestamp_range = int8range(i.ts, null)');
  // An update with nothing to set still marks the row as existing.
  if (sets.length === 0) sets.push(`"${spec.key[0]}" = t."${spec.key[0]}"`);

  let moved = '';
  if (spec.range?.history) {
    const history = schema
      .columns(spec.table)
      .map((c) => `"${c.name}"`)
      .filter((c) => c !== '"timestamp_range"');
    moved = `, moved as (
      insert into "${spec.table}_history" (${history.join(', ')}, timestamp_range)
      select ${history.map((c) => `t.${c}`).join(', ')}, int8range(lower(t.timestamp_range), i.ts)
        from ${table} t join i on ${join} where lower(t.timestamp_range) < i.ts)`;
  }
  const insertColumns = columns.map((c) => `"${c.name}"`);
  const insertValues = columns.map((c) => `i."${c.name}"`);
  if (spec.range) {
    insertColumns.push('timestamp_range');
    insertValues.push('int8range(i.ts, null)');
  }
  const keyList = spec.key.map((k) => `"${k}"`).join(', ');
  const sql = `with i as (select ${select.join(', ')} from unnest(${params}) as u(${aliases.join(', ')}))${moved},
    updated as (update ${table} t set ${sets.join(', ')} from i where ${join} returning ${spec.key.map((k) => `t."${k}"`).join(', ')})
    insert into ${table} (${insertColumns.join(', ')})
    select ${insertValues.join(', ')} from i left join updated u on ${spec.key.map((k) => `u."${k}" = i."${k}"`).join(' and ')}
     where i.insertable and u."${spec.key[0]}" is null
    on conflict (${keyList}) do nothing`;
  return { text: sql, values: arrays.map(textArray) };
}
