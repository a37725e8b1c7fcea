/**
 * A JSON reader whose errors read as the reference's: its web3 module (Spring + Jackson) answers a malformed body
 * with 400 and `JSON parse error: <Jackson's message>`, and clients (relays) show that text. Numbers keep their source
 * text, so int64 values are never rounded through a double. Like Spring's Jackson, only the first value of the body
 * is read: anything after it is ignored.
 */

/** A JSON number as written in the body. */
export class JsonNumber {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
  get isInteger(): boolean {
    return /^-?\d+$/.test(this.source);
  }
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | { [key: string]: JsonValue };

export type JsonReadResult = { ok: true; value: JsonValue } | { ok: false; message: string };

const MAX_NESTING_DEPTH = 1000;
const VALID_VALUES = "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')";
const SOURCE = '[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)';

class JsonSyntaxError extends Error {}

/** What ends a plain run inside a string: its closing quote, an escape, or a character that must be escaped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids unescaped control characters in strings.
const STRING_STOP = /["\\\u0000-\u001f]/g;

/** Jackson's description of a character: `'f' (code 102)`, or `(CTRL-CHAR, code 10)`. */
function describe(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 32 || (code >= 127 && code < 160)) return `(CTRL-CHAR, code ${code})`;
  if (code > 255) return `('${char}' (code ${code} / 0x${code.toString(16)}))`;
  return `('${char}' (code ${code}))`;
}

const unexpected = (char: string, expectation: string) =>
  new JsonSyntaxError(`Unexpected character ${describe(char)}: ${expectation}`);

const isWhitespace = (char: string | undefined) => char === ' ' || char === '\t' || char === '\n' || char === '\r';
const isIdentifierPart = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_$]/u.test(char);

class Reader {
  private position = 0;
  private depth = 0;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  read(): JsonValue {
    this.skipWhitespace();
    if (this.position >= this.text.length) throw new JsonSyntaxError('No content to map due to end-of-input');
    return this.value();
  }

  /** Jackson's `StreamReadConstraints` nesting limit: a body nested deeper is refused, not recursed into. */
  private enter(): void {
    if (++this.depth > MAX_NESTING_DEPTH) {
      throw new JsonSyntaxError(
        `Document nesting depth (${this.depth}) exceeds the maximum allowed (${MAX_NESTING_DEPTH}, from \`StreamReadConstraints.getMaxNestingDepth()\`)`,
      );
    }
  }

  private peek(): string | undefined {
    return this.text[this.position];
  }

  private skipWhitespace(): void {
    while (isWhitespace(this.peek())) this.position++;
  }

  /** Where an open bracket stands, as Jackson reports it (1-based line and column). */
  private location(offset: number): string {
    const before = this.text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    return `${SOURCE}; line: ${line}, column: ${column}]`;
  }

  private value(): JsonValue {
    const char = this.peek();
    if (char === undefined) throw new JsonSyntaxError('Unexpected end-of-input: expected a value');
    if (char === '{' || char === '[') {
      try {
        return char === '{' ? this.object() : this.array();
      } finally {
        this.depth--;
      }
    }
    if (char === '"') return this.string();
    if (char === '-' || (char >= '0' && char <= '9')) return this.number();
    if (/\p{L}|[_$]/u.test(char)) return this.keyword();
    throw unexpected(char, `expected a valid value ${VALID_VALUES}`);
  }

  private object(): { [key: string]: JsonValue } {
    const start = this.position++;
    this.enter();
    const result: { [key: string]: JsonValue } = {};
    const endOfInput = () =>
      new JsonSyntaxError(
        `Unexpected end-of-input: expected close marker for Object (start marker at ${this.location(start)})`,
      );
    const betweenEntries = () => new JsonSyntaxError('Unexpected end-of-input within/between Object entries');
    this.skipWhitespace();
    if (this.peek() === '}') {
      this.position++;
      return result;
    }
    for (let first = true; ; first = false) {
      const char = this.peek();
      if (char === undefined) throw first ? endOfInput() : betweenEntries();
      if (char !== '"') throw unexpected(char, 'was expecting double-quote to start property name');
      const key = this.string();
      this.skipWhitespace();
      const colon = this.peek();
      if (colon === undefined) throw betweenEntries();
      if (colon !== ':') throw unexpected(colon, 'was expecting a colon to separate property name and value');
      this.position++;
      this.skipWhitespace();
      if (this.peek() === undefined) throw betweenEntries();
      result[key] = this.value();
      this.skipWhitespace();
      const next = this.peek();
      if (next === undefined) throw endOfInput();
      this.position++;
      if (next === '}') return result;
      if (next !== ',') throw unexpected(next, 'was expecting comma to separate Object entries');
      this.skipWhitespace();
    }
  }

  private array(): JsonValue[] {
    const start = this.position++;
    this.enter();
    const result: JsonValue[] = [];
    const endOfInput = () =>
      new JsonSyntaxError(
        `Unexpected end-of-input: expected close marker for Array (start marker at ${this.location(start)})`,
      );
    this.skipWhitespace();
    if (this.peek() === ']') {
      this.position++;
      return result;
    }
    for (;;) {
      if (this.peek() === undefined) throw endOfInput();
      result.push(this.value());
      this.skipWhitespace();
      const next = this.peek();
      if (next === undefined) throw endOfInput();
      this.position++;
      if (next === ']') return result;
      if (next !== ',') throw unexpected(next, 'was expecting comma to separate Array entries');
      this.skipWhitespace();
    }
  }

  private string(): string {
    this.position++;
    let result = '';
    for (;;) {
      // Plain runs are copied in one slice: a 256 KiB `data` string is one step, not a quarter million.
      STRING_STOP.lastIndex = this.position;
      const stop = STRING_STOP.exec(this.text);
      if (!stop) throw new JsonSyntaxError('Unexpected end-of-input: was expecting closing quote for a string value');
      result += this.text.slice(this.position, stop.index);
      this.position = stop.index;
      const char = this.text[this.position++] as string;
      if (char === '"') return result;
      if (char !== '\\') {
        throw new JsonSyntaxError(
          `Illegal unquoted character (${describe(char).slice(1, -1)}): has to be escaped using backslash to be included in string value`,
        );
      }
      result += this.escape();
    }
  }

  private escape(): string {
    const char = this.text[this.position++];
    if (char === undefined) throw new JsonSyntaxError('Unexpected end-of-input in character escape sequence');
    const simple: Record<string, string> = {
      '"': '"',
      '\\': '\\',
      '/': '/',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
    };
    const known = simple[char];
    if (known !== undefined) return known;
    if (char !== 'u') throw new JsonSyntaxError(`Unrecognized character escape ${describe(char).slice(1, -1)}`);
    const hex = this.text.slice(this.position, this.position + 4);
    const bad = [...hex].find((digit) => !/[0-9a-fA-F]/.test(digit));
    if (bad !== undefined) throw unexpected(bad, 'expected a hex-digit for character escape sequence');
    if (hex.length < 4) throw new JsonSyntaxError('Unexpected end-of-input in character escape sequence');
    this.position += 4;
    return String.fromCharCode(Number.parseInt(hex, 16));
  }

  private number(): JsonNumber {
    const start = this.position;
    if (this.peek() === '-') this.position++;
    const digits = () => {
      const from = this.position;
      while (/[0-9]/.test(this.peek() ?? '')) this.position++;
      return this.position - from;
    };
    const following = (what: string) => {
      const char = this.peek();
      if (char === undefined) return new JsonSyntaxError('Unexpected end-of-input in a Number value');
      return new JsonSyntaxError(`Unexpected character ${describe(char)} in numeric value: ${what}`);
    };
    const integerStart = this.position;
    if (digits() === 0) throw following('expected digit (0-9) to follow minus sign, for valid numeric value');
    if (this.text[integerStart] === '0' && this.position - integerStart > 1) {
      throw new JsonSyntaxError('Invalid numeric value: Leading zeroes not allowed');
    }
    if (this.peek() === '.') {
      this.position++;
      if (digits() === 0) throw following('Decimal point not followed by a digit');
    }
    if (this.peek() === 'e' || this.peek() === 'E') {
      this.position++;
      if (this.peek() === '+' || this.peek() === '-') this.position++;
      if (digits() === 0) throw following('Exponent indicator not followed by a digit');
    }
    return new JsonNumber(this.text.slice(start, this.position));
  }

  private keyword(): JsonValue {
    const start = this.position;
    while (isIdentifierPart(this.peek())) this.position++;
    const token = this.text.slice(start, this.position);
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (token === 'null') return null;
    throw new JsonSyntaxError(`Unrecognized token '${token}': was expecting ${VALID_VALUES}`);
  }
}

/** The body's first JSON value, or Jackson's message for the first error in it. */
export function readJson(text: string): JsonReadResult {
  try {
    return { ok: true, value: new Reader(text).read() };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, message: error.message };
    throw error;
  }
}
