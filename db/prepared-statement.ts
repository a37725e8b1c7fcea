import { Placeholder, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/**
 * A statement whose text is built once per isolate: the `sql` it is made of names its values with
 * `sql.placeholder(name)`, and `bind` gives the SQL of one execution. Building a statement's text walks every chunk
 * of its `sql` (nested fragments, parameters, escaping) on each request; for the single-row lookups that walk is a
 * measurable part of the Worker's work per request (docs/performance.md, "Profile of a single-row request").
 */
export class PreparedStatement<Values extends Record<string, unknown>> {
  readonly text: string;
  /** The placeholder each parameter of `text` is filled from, in order. */
  readonly #names: readonly (keyof Values & string)[];

  constructor(query: SQL) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    this.text = text;
    this.#names = params.map((param) => {
      if (!(param instanceof Placeholder)) throw new Error(`a prepared statement takes placeholders only: ${text}`);
      return param.name as keyof Values & string;
    });
  }

  bind(values: Values): SQL {
    return new BoundStatement(
      this.text,
      this.#names.map((name) => values[name]),
    );
  }
}

/**
 * One execution of a prepared statement. It is a drizzle `SQL`, so whatever runs an `SQL` runs it (the Worker's
 * client, the tests' plan helpers); its query is the text built once and these values, not a walk of chunks.
 */
class BoundStatement extends SQL {
  readonly #text: string;
  readonly #params: unknown[];

  constructor(text: string, params: unknown[]) {
    super([]);
    this.#text = text;
    this.#params = params;
  }

  override toQuery(): { sql: string; params: unknown[] } {
    return { sql: this.#text, params: this.#params };
  }
}
