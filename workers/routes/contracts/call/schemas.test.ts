import { describe, expect, it } from 'vitest';
import { readCallRequest } from './request-body.ts';
import { validateCallRequest } from './schemas.ts';
import { EVERY_FIELD_INVALID, INVALID_ADDRESSES } from './testing/invalid-requests.ts';

function details(body: object): string[] {
  const read = readCallRequest(JSON.stringify(body));
  if (!read.ok) throw new Error(read.detail);
  const result = validateCallRequest(read.request);
  return result.ok ? [] : result.details.sort();
}

const ADDRESS = '0x00000000000000000000000000000000000004e2';

describe('validateCallRequest', () => {
  it('reports every violated field', () => {
    expect(details(EVERY_FIELD_INVALID.request)).toEqual(EVERY_FIELD_INVALID.details);
  });

  it.each(INVALID_ADDRESSES)('rejects the address %j', (address) => {
    expect(details({ to: address })).toEqual(['to field invalid hexadecimal string']);
    expect(details({ to: ADDRESS, from: address })).toEqual(['from field invalid hexadecimal string']);
  });

  it('accepts an empty to but not an empty from', () => {
    expect(details({ to: '' })).toEqual([]);
    expect(details({ to: ADDRESS, from: '' })).toEqual(['from field invalid hexadecimal string']);
  });

  it('needs from for a value transfer, and to unless the data is init code', () => {
    expect(details({ to: ADDRESS, value: 23 })).toEqual(['from field must not be empty']);
    expect(details({ from: ADDRESS, value: 23, data: '0x1079023a' })).toEqual(['to field must not be empty']);
    expect(
      details({ from: ADDRESS, value: 23, data: '0x6080604052348015600f57600080fd5b50603f80601d6000396000f3fe' }),
    ).toEqual([]);
  });

  it('checks the data digits but leaves an odd count to decoding', () => {
    expect(details({ to: ADDRESS, data: '0x12345z' })).toEqual(['data field invalid hexadecimal string']);
    expect(details({ to: ADDRESS, data: '1aa' })).toEqual([]);
  });

  it('turns the zero address into a contract create and keeps addresses as bytes', () => {
    const read = readCallRequest(JSON.stringify({ to: `0x${'0'.repeat(40)}`, from: ADDRESS, data: '0xaBeCd0' }));
    const result = read.ok ? validateCallRequest(read.request) : undefined;
    expect(result?.ok && [result.request.to, result.request.from?.[19], result.request.dataHex]).toEqual([
      undefined,
      0xe2,
      'aBeCd0',
    ]);
  });
});
