import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode } from './base32.ts';

describe('base32', () => {
  it('encodes without padding and decodes back', () => {
    const bytes = Uint8Array.from(
      Buffer.from('519a008fabde4d28d68293c71fcdcdcca38d8fae6102a832b31e802f257fd1d9', 'hex'),
    );
    const text = base32Encode(bytes);
    expect(text).toBe('KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ');
    expect(base32Decode(text as string)).toEqual(bytes);
    expect(base32Encode(null)).toBeNull();
    expect(base32Encode(new Uint8Array())).toBe('');
  });

  it.each([
    ['ABC', 'leaves seven bits over'],
    ['KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL', 'leaves bits that are not zero'],
    ['abcd', 'has lower case letters'],
    ['AB1=', 'has characters outside the alphabet'],
  ])('refuses %s, which %s', (text) => {
    expect(base32Decode(text)).toBeUndefined();
  });
});
