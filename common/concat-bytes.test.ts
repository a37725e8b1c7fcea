import { describe, expect, it } from 'vitest';
import { concatBytes } from './concat-bytes.ts';

describe('concatBytes', () => {
  it('puts the chunks one after the other', () => {
    expect(concatBytes([Uint8Array.of(1, 2), new Uint8Array(), Uint8Array.of(3)])).toEqual(Uint8Array.of(1, 2, 3));
    expect(concatBytes([])).toEqual(new Uint8Array());
  });

  it('answers a single chunk with the chunk itself, uncopied', () => {
    const chunk = Uint8Array.of(7, 8);
    expect(concatBytes([chunk])).toBe(chunk);
  });
});
