/**
 * The first JSON value of a request body, read as Go's `json.Decoder.Decode` reads it, with its errors word for word:
 * the reference's Rosetta server (the Mesh Go SDK) answers a body that does not parse with the decoder's message
 * (`EOF`, `unexpected EOF`, `invalid character 'x' looking for beginning of value`). Like the decoder, it reads one
 * value and ignores whatever follows it; numbers keep their text, so that int64 fields are read exactly.
 */

export type JsonNode =
  | { readonly kind: 'object'; readonly members: readonly (readonly [string, JsonNode])[] }
  | { readonly kind: 'array'; readonly items: readonly JsonNode[] }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'null' };

/** A body Go's decoder refuses, with its message. */
export class GoSyntaxError extends Error {
  override readonly name = 'GoSyntaxError';
}

/** Go's scanner nests at most this deep. */
const MAX_DEPTH = 10_000;

const utf8 = new TextDecoder('utf-8');

const GO_ESCAPES: Readonly<Record<number, string>> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
  92: '\\\\',
};

/**
 * Go's `quoteChar`: the offending byte as the scanner names it, quoted as `strconv.Quote` quotes the rune of that
 * value (a byte above 0x7f is the Latin-1 character of that number: a UTF-8 BOM's first byte is `'ï'`).
 */
function quoteChar(byte: number): string {
  if (byte === 0x27) return "'\\''";
  if (byte === 0x22) return "'\"'";
  const short = GO_ESCAPES[byte];
  if (short !== undefined) return `'${short}'`;
  if (byte < 0x20 || byte === 0x7f) return `'\\x${byte.toString(16).padStart(2, '0')}'`;
  // Not printable in Go's sense: the C1 controls, the no-break space and the soft hyphen.
  if ((byte >= 0x80 && byte <= 0xa0) || byte === 0xad) return `'\\u00${byte.toString(16)}'`;
  return `'${String.fromCharCode(byte)}'`;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class Scanner {
  readonly bytes: Uint8Array;
  #pos = 0;
  #depth = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  /** The next byte, or the decoder's `unexpected EOF` when the body ends inside a value. */
  #peek(): number {
    const byte = this.bytes[this.#pos];
    if (byte === undefined) throw new GoSyntaxError('unexpected EOF');
    return byte;
  }

  #fail(byte: number, context: string): never {
    throw new GoSyntaxError(`invalid character ${quoteChar(byte)} ${context}`);
  }

  #skipSpace(): void {
    while (this.#pos < this.bytes.length && isSpace(this.bytes[this.#pos] as number)) this.#pos++;
  }

  top(): JsonNode {
    this.#skipSpace();
    if (this.#pos >= this.bytes.length) throw new GoSyntaxError('EOF');
    return this.#value('looking for beginning of value');
  }

  #value(context: string): JsonNode {
    this.#skipSpace();
    const c = this.#peek();
    if (c === 0x7b) return this.#object();
    if (c === 0x5b) return this.#array();
    if (c === 0x22) return { kind: 'string', value: this.#string() };
    if (c === 0x2d || isDigit(c)) return { kind: 'number', text: this.#number() };
    if (c === 0x74) return this.#literal('true', { kind: 'bool', value: true });
    if (c === 0x66) return this.#literal('false', { kind: 'bool', value: false });
    if (c === 0x6e) return this.#literal('null', { kind: 'null' });
    return this.#fail(c, context);
  }

  #nest(): void {
    if (++this.#depth > MAX_DEPTH) throw new GoSyntaxError('exceeded max depth');
  }

  #object(): JsonNode {
    this.#nest();
    this.#pos++;
    const members: [string, JsonNode][] = [];
    this.#skipSpace();
    if (this.#peek() === 0x7d) {
      this.#pos++;
      this.#depth--;
      return { kind: 'object', members };
    }
    for (;;) {
      this.#skipSpace();
      const quote = this.#peek();
      if (quote !== 0x22) this.#fail(quote, 'looking for beginning of object key string');
      const key = this.#string();
      this.#skipSpace();
      const colon = this.#peek();
      if (colon !== 0x3a) this.#fail(colon, 'after object key');
      this.#pos++;
      members.push([key, this.#value('looking for beginning of value')]);
      this.#skipSpace();
      const next = this.#peek();
      this.#pos++;
      if (next === 0x7d) break;
      if (next !== 0x2c) this.#fail(next, 'after object key:value pair');
    }
    this.#depth--;
    return { kind: 'object', members };
  }

  #array(): JsonNode {
    this.#nest();
    this.#pos++;
    const items: JsonNode[] = [];
    this.#skipSpace();
    if (this.#peek() === 0x5d) {
      this.#pos++;
      this.#depth--;
      return { kind: 'array', items };
    }
    for (;;) {
      items.push(this.#value('looking for beginning of value'));
      this.#skipSpace();
      const next = this.#peek();
      this.#pos++;
      if (next === 0x5d) break;
      if (next !== 0x2c) this.#fail(next, 'after array element');
    }
    this.#depth--;
    return { kind: 'array', items };
  }

  #literal(word: string, node: JsonNode): JsonNode {
    this.#pos++;
    for (const expected of word.slice(1)) {
      const c = this.#peek();
      if (c !== expected.charCodeAt(0)) this.#fail(c, `in literal ${word} (expecting '${expected}')`);
      this.#pos++;
    }
    return node;
  }

  #digits(): void {
    while (this.#pos < this.bytes.length && isDigit(this.bytes[this.#pos] as number)) this.#pos++;
  }

  #number(): string {
    const start = this.#pos;
    if (this.bytes[this.#pos] === 0x2d) {
      this.#pos++;
      const c = this.#peek();
      if (!isDigit(c)) this.#fail(c, 'in numeric literal');
    }
    if (this.bytes[this.#pos] === 0x30) this.#pos++;
    else this.#digits();
    if (this.bytes[this.#pos] === 0x2e) {
      this.#pos++;
      const c = this.#peek();
      if (!isDigit(c)) this.#fail(c, 'after decimal point in numeric literal');
      this.#digits();
    }
    const e = this.bytes[this.#pos];
    if (e === 0x65 || e === 0x45) {
      this.#pos++;
      const sign = this.#peek();
      if (sign === 0x2b || sign === 0x2d) this.#pos++;
      const c = this.#peek();
      if (!isDigit(c)) this.#fail(c, 'in exponent of numeric literal');
      this.#digits();
    }
    return utf8.decode(this.bytes.subarray(start, this.#pos));
  }

  /** A string literal from its opening quote; escapes decoded, lone surrogates and bad UTF-8 as U+FFFD. */
  #string(): string {
    this.#pos++;
    let text = '';
    let runStart = this.#pos;
    const flush = () => {
      text += utf8.decode(this.bytes.subarray(runStart, this.#pos));
    };
    for (;;) {
      const c = this.#peek();
      if (c === 0x22) {
        flush();
        this.#pos++;
        return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
      }
      if (c < 0x20) this.#fail(c, 'in string literal');
      if (c !== 0x5c) {
        this.#pos++;
        continue;
      }
      flush();
      this.#pos++;
      text += this.#escape();
      runStart = this.#pos;
    }
  }

  #escape(): string {
    const c = this.#peek();
    this.#pos++;
    const simple: Record<number, string> = {
      34: '"',
      92: '\\',
      47: '/',
      98: '\b',
      102: '\f',
      110: '\n',
      114: '\r',
      116: '\t',
    };
    const plain = simple[c];
    if (plain !== undefined) return plain;
    if (c !== 0x75) this.#fail(c, 'in string escape code');
    let code = 0;
    for (let i = 0; i < 4; i++) {
      const h = this.#peek();
      if (!isHex(h)) this.#fail(h, 'in \\u hexadecimal character escape');
      code = code * 16 + Number.parseInt(String.fromCharCode(h), 16);
      this.#pos++;
    }
    return String.fromCharCode(code);
  }
}

/** The first JSON value of `body`, as Go's decoder reads it; a `GoSyntaxError` with Go's message otherwise. */
export function scanJson(body: Uint8Array): JsonNode {
  return new Scanner(body).top();
}
