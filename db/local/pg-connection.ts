import type net from 'node:net';
import {
  bind,
  commandResult,
  DESCRIBE_PORTAL,
  EXECUTE_ALL,
  errorFields,
  type PgField,
  type PgResult,
  PgServerError,
  type PgStatement,
  type PgTarget,
  parse,
  SYNC,
  TERMINATE,
} from './pg-messages.ts';
import { openSession } from './pg-startup.ts';

export { type PgField, type PgResult, PgServerError, type PgStatement, type PgTarget } from './pg-messages.ts';

/** Named prepared statements per connection at most; texts beyond run unnamed (parsed each time). */
const MAX_PREPARED_STATEMENTS = 2000;

/**
 * A statement text prepared on this connection: `parsing` until the server answers its Parse, `fields` once an
 * execution has described its rows.
 */
interface Prepared {
  text: string;
  name: string;
  parsing: boolean;
  fields?: PgField[];
}

/** One Sync's worth of statements in flight, answered in order. */
interface Exchange {
  statements: { prepared?: Prepared; fields?: PgField[] }[];
  /** The statements that sent a Parse, in order: each ParseComplete confirms the first still waiting. */
  parses: (Prepared | undefined)[];
  results: PgResult[];
  rows: (string | null)[][];
  error?: Error;
  resolve(results: PgResult[]): void;
  reject(error: Error): void;
}

/**
 * One Postgres connection speaking the extended query protocol, pipelined: statements are written as they come
 * (the writes of one turn of the event loop coalesced into one), without waiting for earlier answers, and answered
 * in order. Each statement text becomes a named prepared statement on its first use, and its row description is
 * kept, so a later execution is one Bind and one Execute. A `run` of several statements is one Sync: one implicit
 * transaction, rolled back as a whole on an error.
 */
export class PgConnection {
  readonly #socket: net.Socket;
  readonly #prepared = new Map<string, Prepared>();
  readonly #exchanges: Exchange[] = [];
  /** Names are never reused: a forgotten statement may still exist on the server. */
  #names = 0;
  #outbox: Buffer[] = [];
  #flushing = false;
  #pending: Buffer = Buffer.alloc(0);
  #closed?: Error;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => this.#fail(new Error('the database closed the connection')));
    socket.resume();
  }

  /** Connects, authenticates (trust, password, md5, SCRAM-SHA-256) and waits until the server is ready. */
  static async open(target: PgTarget): Promise<PgConnection> {
    return new PgConnection(await openSession(target));
  }

  /** Exchanges written and not yet answered. */
  get inFlight(): number {
    return this.#exchanges.length;
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** Runs the statements in one implicit transaction; their results in order, or the first error. */
  run(statements: readonly PgStatement[]): Promise<PgResult[]> {
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise((resolve, reject) => {
      const exchange: Exchange = { statements: [], parses: [], results: [], rows: [], resolve, reject };
      for (const { text, params } of statements) {
        let prepared = this.#prepared.get(text);
        if (prepared && !prepared.parsing) {
          this.#outbox.push(bind(prepared.name, params));
          if (!prepared.fields) this.#outbox.push(DESCRIBE_PORTAL);
          this.#outbox.push(EXECUTE_ALL);
          exchange.statements.push({ prepared, fields: prepared.fields });
          continue;
        }
        // A text whose first Parse is still unanswered runs unnamed: a Bind to its name could precede a failure.
        if (!prepared && this.#prepared.size < MAX_PREPARED_STATEMENTS) {
          prepared = { text, name: `s${this.#names++}`, parsing: true };
          this.#prepared.set(text, prepared);
          this.#outbox.push(parse(prepared.name, text), bind(prepared.name, params));
          exchange.parses.push(prepared);
          exchange.statements.push({ prepared });
        } else {
          this.#outbox.push(parse('', text), bind('', params));
          exchange.parses.push(undefined);
          exchange.statements.push({});
        }
        this.#outbox.push(DESCRIBE_PORTAL, EXECUTE_ALL);
      }
      this.#outbox.push(SYNC);
      this.#exchanges.push(exchange);
      if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Sends Terminate and closes; exchanges still in flight are rejected. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#fail(new Error('the connection was closed'));
    return new Promise((resolve) => {
      this.#socket.once('close', () => resolve());
      this.#socket.end(TERMINATE);
    });
  }

  #flush(): void {
    this.#flushing = false;
    if (this.#outbox.length === 0 || this.#closed) return;
    const chunks = this.#outbox;
    this.#outbox = [];
    this.#socket.write(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = error;
    this.#outbox = [];
    for (const exchange of this.#exchanges.splice(0)) exchange.reject(error);
  }

  #receive(chunk: Buffer): void {
    const buffer = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    let at = 0;
    while (buffer.length - at >= 5) {
      const end = at + 1 + buffer.readInt32BE(at + 1);
      if (end > buffer.length) break;
      this.#handle(buffer[at] as number, buffer, at + 5, end);
      at = end;
    }
    this.#pending = at === buffer.length ? Buffer.alloc(0) : buffer.subarray(at);
  }

  #handle(type: number, buffer: Buffer, start: number, end: number): void {
    const exchange = this.#exchanges[0];
    if (!exchange) return; // a NoticeResponse or ParameterStatus between exchanges
    const statement = exchange.statements[exchange.results.length];
    switch (type) {
      case 0x31: {
        // ParseComplete
        const prepared = exchange.parses.shift();
        if (prepared) prepared.parsing = false;
        break;
      }
      case 0x54: {
        // RowDescription
        const fields: PgField[] = [];
        let at = start + 2;
        for (let i = buffer.readInt16BE(start); i > 0; i--) {
          const nul = buffer.indexOf(0, at);
          fields.push({ name: buffer.toString('utf8', at, nul), dataTypeID: buffer.readInt32BE(nul + 7) });
          at = nul + 19;
        }
        if (statement) statement.fields = fields;
        if (statement?.prepared) statement.prepared.fields = fields;
        break;
      }
      case 0x6e: // NoData
        if (statement) statement.fields = [];
        if (statement?.prepared) statement.prepared.fields = [];
        break;
      case 0x44: {
        // DataRow
        const count = buffer.readInt16BE(start);
        const row = new Array<string | null>(count);
        let at = start + 2;
        for (let i = 0; i < count; i++) {
          const length = buffer.readInt32BE(at);
          at += 4;
          row[i] = length < 0 ? null : buffer.toString('utf8', at, at + length);
          if (length > 0) at += length;
        }
        exchange.rows.push(row);
        break;
      }
      case 0x43: // CommandComplete
      case 0x49: {
        // EmptyQueryResponse
        const tag = type === 0x43 ? buffer.toString('utf8', start, end - 1) : '';
        exchange.results.push(commandResult(tag, statement?.fields ?? [], exchange.rows));
        exchange.rows = [];
        break;
      }
      case 0x45: // ErrorResponse: the server skips the rest until Sync
        exchange.error ??= new PgServerError(errorFields(buffer.subarray(start, end)));
        break;
      case 0x5a: // ReadyForQuery
        this.#exchanges.shift();
        this.#settle(exchange);
        break;
    }
  }

  #settle(exchange: Exchange): void {
    // A Parse never answered (skipped after an error) left no statement on the server: run that text afresh.
    for (const prepared of exchange.parses) {
      if (prepared && this.#prepared.get(prepared.text) === prepared) this.#prepared.delete(prepared.text);
    }
    if (exchange.error) exchange.reject(exchange.error);
    else exchange.resolve(exchange.results);
  }
}
