import net from 'node:net';
import tls from 'node:tls';
import { md5Password, ScramClient } from './pg-auth.ts';

/** Where and as whom to connect. */
export interface PgTarget {
  /** A Unix socket file (`<dir>/.s.PGSQL.<port>`), or a host and port. */
  socketPath?: string;
  host?: string;
  port?: number;
  user: string;
  password: string;
  database: string;
  applicationName?: string;
  /** libpq's `sslmode`: absent or `disable` for none; `require` encrypts; `verify-ca`/`verify-full` also verify. */
  sslMode?: string;
}

export interface PgField {
  name: string;
  dataTypeID: number;
}

/** One statement's answer, values as Postgres' text (the driver that asked parses them). */
export interface PgResult {
  command: string;
  rowCount: number | null;
  rows: (string | null)[][];
  fields: PgField[];
}

export interface PgStatement {
  text: string;
  params: readonly unknown[];
}

/** An ErrorResponse: the message and Postgres' fields, as node-postgres names them. */
export class PgServerError extends Error {
  override name = 'PgServerError';
  readonly code?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;

  constructor(fields: Map<string, string>) {
    super(fields.get('M') ?? 'database error');
    this.code = fields.get('C');
    this.detail = fields.get('D');
    this.hint = fields.get('H');
    this.position = fields.get('P');
  }
}

/** Named prepared statements per connection at most; texts beyond run unnamed (parsed each time). */
const MAX_PREPARED_STATEMENTS = 2000;
const PROTOCOL_3 = 196608;
const SSL_REQUEST = 80877103;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);
const DESCRIBE_PORTAL = Buffer.from([0x44, 0, 0, 0, 6, 0x50, 0]);
const EXECUTE_ALL = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]);

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

function message(type: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(1 + length);
  buffer[0] = type;
  buffer.writeInt32BE(length, 1);
  return buffer;
}

function cstrings(type: number, strings: readonly string[], extra = 0): { buffer: Buffer; offset: number } {
  const length = 4 + strings.reduce((sum, s) => sum + Buffer.byteLength(s) + 1, 0) + extra;
  const buffer = message(type, length);
  let offset = 5;
  for (const s of strings) {
    offset += buffer.write(s, offset);
    buffer[offset++] = 0;
  }
  return { buffer, offset };
}

const paramText = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'string'
      ? value
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

/** Bind of `statement` (unnamed portal), every parameter and result column as text. */
function bind(statement: string, params: readonly unknown[]): Buffer {
  const texts = params.map(paramText);
  const valueBytes = texts.reduce((sum, t) => sum + 4 + (t === null ? 0 : Buffer.byteLength(t)), 0);
  const { buffer, offset: start } = cstrings(0x42, ['', statement], 2 + 2 + valueBytes + 2);
  let offset = buffer.writeInt16BE(0, start);
  offset = buffer.writeInt16BE(texts.length, offset);
  for (const text of texts) {
    if (text === null) {
      offset = buffer.writeInt32BE(-1, offset);
      continue;
    }
    const at = offset + 4;
    const written = buffer.write(text, at);
    buffer.writeInt32BE(written, offset);
    offset = at + written;
  }
  buffer.writeInt16BE(0, offset);
  return buffer;
}

function parse(name: string, text: string): Buffer {
  const { buffer, offset } = cstrings(0x50, [name, text], 2);
  buffer.writeInt16BE(0, offset);
  return buffer;
}

/** `C`-string fields of an ErrorResponse or NoticeResponse body. */
function errorFields(body: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    fields.set(String.fromCharCode(body[at] as number), body.toString('utf8', at + 1, end));
    at = end + 1;
  }
  return fields;
}

function commandResult(tag: string, fields: PgField[], rows: (string | null)[][]): PgResult {
  const words = tag.split(' ');
  const count = words.length > 1 ? Number(words[words.length - 1]) : Number.NaN;
  return { command: words[0] ?? '', rowCount: Number.isInteger(count) ? count : null, rows, fields };
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
    const socket = await connectSocket(target);
    try {
      await startup(socket, target);
    } catch (error) {
      socket.destroy();
      throw error;
    }
    return new PgConnection(socket);
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

async function connectSocket(target: PgTarget): Promise<net.Socket> {
  const socket = target.socketPath
    ? net.connect(target.socketPath)
    : net.connect(target.port ?? 5432, target.host ?? 'localhost');
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const mode = target.sslMode ?? 'disable';
  if (mode === 'disable' || target.socketPath) return socket;
  const request = Buffer.alloc(8);
  request.writeInt32BE(8, 0);
  request.writeInt32BE(SSL_REQUEST, 4);
  socket.write(request);
  const answer = await new Promise<number>((resolve, reject) => {
    socket.once('data', (data: Buffer) => resolve(data[0] as number));
    socket.once('error', reject);
  });
  if (answer !== 0x53) {
    if (mode === 'prefer' || mode === 'allow') return socket;
    socket.destroy();
    throw new Error('the database does not accept TLS connections');
  }
  const secure = tls.connect({
    socket,
    servername: net.isIP(target.host ?? '') ? undefined : target.host,
    rejectUnauthorized: mode === 'verify-ca' || mode === 'verify-full',
  });
  await new Promise<void>((resolve, reject) => {
    secure.once('secureConnect', resolve);
    secure.once('error', reject);
  });
  return secure;
}

/** The startup message and authentication, up to the first ReadyForQuery. */
function startup(socket: net.Socket, target: PgTarget): Promise<void> {
  const params = ['user', target.user, 'database', target.database, 'client_encoding', 'UTF8'];
  if (target.applicationName) params.push('application_name', target.applicationName);
  const length = 8 + params.reduce((sum, p) => sum + Buffer.byteLength(p) + 1, 0) + 1;
  const start = Buffer.alloc(length);
  start.writeInt32BE(length, 0);
  start.writeInt32BE(PROTOCOL_3, 4);
  let at = 8;
  for (const p of params) at += start.write(p, at) + 1;
  socket.write(start);
  let scram: ScramClient | undefined;
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    // The error listener stays: until the connection adds its own, an error must not go unhandled.
    const done = () => {
      socket.off('data', onData);
      // Paused until the connection listens: bytes after ReadyForQuery must not be emitted to nobody.
      socket.pause();
    };
    const fail = (error: Error) => {
      done();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const type = pending[0];
        const body = pending.subarray(5, 1 + pending.readInt32BE(1));
        pending = pending.subarray(1 + pending.readInt32BE(1));
        try {
          if (type === 0x45) return fail(new PgServerError(errorFields(body)));
          if (type === 0x5a) {
            done();
            if (pending.length) socket.unshift(pending);
            return resolve();
          }
          if (type === 0x52) scram = authenticate(socket, target, body, scram);
        } catch (error) {
          return fail(error as Error);
        }
      }
    };
    socket.on('data', onData);
    socket.on('error', fail);
  });
}

/** Answers one Authentication request; returns the SCRAM exchange in progress, if any. */
function authenticate(
  socket: net.Socket,
  target: PgTarget,
  body: Buffer,
  scram?: ScramClient,
): ScramClient | undefined {
  const password = (text: string) => socket.write(cstrings(0x70, [text]).buffer);
  switch (body.readInt32BE(0)) {
    case 0:
      return undefined;
    case 3:
      password(target.password);
      return undefined;
    case 5:
      password(md5Password(target.user, target.password, body.subarray(4, 8)));
      return undefined;
    case 10: {
      if (!body.subarray(4).toString().split('\0').includes('SCRAM-SHA-256')) {
        throw new Error('the database offers no SASL mechanism the proxy speaks (SCRAM-SHA-256)');
      }
      const client = new ScramClient(target.password);
      const data = Buffer.from(client.first());
      const { buffer, offset } = cstrings(0x70, ['SCRAM-SHA-256'], 4 + data.length);
      buffer.writeInt32BE(data.length, offset);
      data.copy(buffer, offset + 4);
      socket.write(buffer);
      return client;
    }
    case 11: {
      if (!scram) throw new Error('SCRAM: a continuation without a start');
      const data = Buffer.from(scram.final(body.subarray(4).toString()));
      const buffer = message(0x70, 4 + data.length);
      data.copy(buffer, 5);
      socket.write(buffer);
      return scram;
    }
    case 12:
      scram?.verify(body.subarray(4).toString());
      return undefined;
    default:
      throw new Error(
        `the database asks for an authentication method the proxy does not speak (${body.readInt32BE(0)})`,
      );
  }
}
