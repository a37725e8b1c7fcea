import { describe, expect, it } from 'vitest';
import { MISSING_BODY, readCallRequest } from './request-body.ts';

const detail = (body: string) => {
  const result = readCallRequest(body);
  return result.ok ? undefined : result.detail;
};

describe('readCallRequest', () => {
  it.each([
    [
      '{from: "0x00000000000000000000000000000000000004e2"}',
      "JSON parse error: Unexpected character ('f' (code 102)): was expecting double-quote to start property name",
    ],
    [
      '{"to": "0x00000000000000000000000000000000000004e2"',
      'JSON parse error: Unexpected end-of-input: expected close marker for Object (start marker at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])',
    ],
    [
      '{"to" "0x"}',
      "JSON parse error: Unexpected character ('\"' (code 34)): was expecting a colon to separate property name and value",
    ],
    [
      '{"gas": 1 "to": ""}',
      "JSON parse error: Unexpected character ('\"' (code 34)): was expecting comma to separate Object entries",
    ],
    [
      '{"to": abc}',
      "JSON parse error: Unrecognized token 'abc': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
    ],
    ['{"to": "0x', 'JSON parse error: Unexpected end-of-input: was expecting closing quote for a string value'],
    ['{"gas": 01}', 'JSON parse error: Invalid numeric value: Leading zeroes not allowed'],
    [
      '{"gas": "abc"}',
      'JSON parse error: Cannot deserialize value of type `long` from String "abc": not a valid `long` value',
    ],
    [
      '{"gas": true}',
      'JSON parse error: Cannot deserialize value of type `long` from Boolean value (token `JsonToken.VALUE_TRUE`)',
    ],
    [
      '{"value": 9223372036854775808}',
      'JSON parse error: Numeric value (9223372036854775808) out of range of long (-9223372036854775808 - 9223372036854775807)',
    ],
    [
      '{"to": {}}',
      'JSON parse error: Cannot deserialize value of type `java.lang.String` from Object value (token `JsonToken.START_OBJECT`)',
    ],
    [
      '{"estimate": "yes"}',
      'JSON parse error: Cannot deserialize value of type `boolean` from String "yes": only "true"/"True"/"TRUE" or "false"/"False"/"FALSE" recognized',
    ],
    [
      '{"block": "-1"}',
      'JSON parse error: Cannot construct instance of `org.hiero.mirror.web3.viewmodel.BlockType`, problem: Invalid block value: -1',
    ],
    [
      '{"block": "9223372036854775808"}',
      'JSON parse error: Cannot construct instance of `org.hiero.mirror.web3.viewmodel.BlockType`, problem: Decimal value out of range for block: 9223372036854775808',
    ],
    [
      '[]',
      'JSON parse error: Cannot deserialize value of type `org.hiero.mirror.web3.viewmodel.ContractCallRequest` from Array value (token `JsonToken.START_ARRAY`)',
    ],
    ['  ', 'JSON parse error: No content to map due to end-of-input'],
    [
      `{"to": ${'['.repeat(5000)}`,
      'JSON parse error: Document nesting depth (1001) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)',
    ],
    ['', MISSING_BODY],
    ['null', MISSING_BODY],
  ])('answers %s with the reference detail', (body, expected) => {
    expect(detail(body)).toBe(expected);
  });

  it('reads the known properties with Jackson coercions and defaults', () => {
    const result = readCallRequest(
      '{"gas": "30000", "value": 1.9, "gasPrice": null, "estimate": 1, "to": 12, "unknown": [1], "block": "0x1A"}',
    );
    expect(result).toEqual({
      ok: true,
      request: {
        block: { kind: 'number', number: 26n },
        data: undefined,
        estimate: true,
        from: undefined,
        gas: 30_000n,
        gasPrice: 0n,
        to: '12',
        value: 1n,
      },
    });
  });

  it('keeps int64 values exact and ignores what follows the object', () => {
    const result = readCallRequest('{"gas": 9223372036854775807} trailing');
    expect(result.ok && result.request.gas).toBe(9_223_372_036_854_775_807n);
  });

  it('reads escapes and a long data string', () => {
    const data = 'ab'.repeat(131_072);
    const result = readCallRequest(`{"data": "${data}", "from": "\\u0030x"}`);
    expect(result.ok && [result.request.data?.length, result.request.from]).toEqual([262_144, '0x']);
  });
});
