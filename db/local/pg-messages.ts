/** Postgres wire protocol (version 3) messages, encoded and decoded: what the proxy's client sends and reads. */

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

export const PROTOCOL_3 = 196608;
export const SSL_REQUEST = 80877103;
export const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
export const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);
export const DESCRIBE_PORTAL = Buffer.from([0x44, 0, 0, 0, 6, 0x50, 0]);
export const EXECUTE_ALL = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]);

export function message(type: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(1 + length);
  buffer[0] = type;
  buffer.writeInt32BE(length, 1);
  return buffer;
}

export function cstrings(type: number, strings: readonly string[], extra = 0): { buffer: Buffer; offset: number } {
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
export function bind(statement: string, params: readonly unknown[]): Buffer {
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

export function parse(name: string, text: string): Buffer {
  const { buffer, offset } = cstrings(0x50, [name, text], 2);
  buffer.writeInt16BE(0, offset);
  return buffer;
}

/** `C`-string fields of an ErrorResponse or NoticeResponse body. */
export function errorFields(body: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    fields.set(String.fromCharCode(body[at] as number), body.toString('utf8', at + 1, end));
    at = end + 1;
  }
  return fields;
}

export function commandResult(tag: string, fields: PgField[], rows: (string | null)[][]): PgResult {
  const words = tag.split(' ');
  const count = words.length > 1 ? Number(words[words.length - 1]) : Number.NaN;
  return { command: words[0] ?? '', rowCount: Number.isInteger(count) ? count : null, rows, fields };
}
