import { describe, expect, it } from 'vitest';
import { scanJson } from './scanner.ts';

const scan = (text: string | Uint8Array) => scanJson(typeof text === 'string' ? new TextEncoder().encode(text) : text);

describe("a body read as Go's json.Decoder reads it", () => {
  it.each([
    ['', 'EOF'],
    ['  \n', 'EOF'],
    ['{', 'unexpected EOF'],
    ['{"network_identifier":{"blockchain":"Hedera"', 'unexpected EOF'],
    ['-', 'unexpected EOF'],
    ['tru', 'unexpected EOF'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{1:2}', "invalid character '1' looking for beginning of object key string"],
    ['{"a":}', "invalid character '}' looking for beginning of value"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":nul}', "invalid character '}' in literal null (expecting 'l')"],
    ['{"a":"\\x"}', "invalid character 'x' in string escape code"],
    ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['{"a":"\t"}', "invalid character '\\t' in string literal"],
    ['{"a":-}', "invalid character '}' in numeric literal"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['\u00ef\u00bb\u00bf{}', "invalid character 'Ã' looking for beginning of value"],
  ])('%j is refused with %j', (body, message) => {
    expect(() => scan(body)).toThrow(message);
  });

  it("names a UTF-8 byte-order mark's first byte as Go does", () => {
    expect(() => scan(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d))).toThrow(
      "invalid character 'ï' looking for beginning of value",
    );
  });

  it('reads one value and ignores what follows it, as the decoder does', () => {
    expect(scan('{} trailing')).toEqual({ kind: 'object', members: [] });
    expect(scan('12')).toEqual({ kind: 'number', text: '12' });
  });

  it('keeps numbers as written and decodes escapes', () => {
    expect(scan('{"i":9223372036854775807,"s":"a\\u00e9\\ud83d\\ude00\\n"}')).toEqual({
      kind: 'object',
      members: [
        ['i', { kind: 'number', text: '9223372036854775807' }],
        ['s', { kind: 'string', value: 'aé😀\n' }],
      ],
    });
  });

  it('replaces a lone surrogate escape with U+FFFD, as Go does', () => {
    expect(scan('"\\ud83d!"')).toEqual({ kind: 'string', value: '\ufffd!' });
  });
});
