import { describe, expect, it } from 'vitest';
import { strongEtag } from './etag.ts';

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe('strongEtag', () => {
  it('is the length and two MurmurHash3 x86_32 lanes, the first with the published seed 0x9747b28c', () => {
    // MurmurHash3_x86_32("The quick brown fox jumps over the lazy dog", 0x9747b28c) = 0x2fa826cd
    const tag = strongEtag(bytesOf('The quick brown fox jumps over the lazy dog'));
    expect(tag).toMatch(/^"17-2fa826cd[0-9a-f]{8}"$/);
    expect(strongEtag(new Uint8Array(0))).toMatch(/^"0-[0-9a-f]{16}"$/);
  });

  it('changes with any one byte of a body, whole words and tail alike', () => {
    const body = bytesOf('{"blocks":[{"number":80043200,"hash":"0xd2a5"}],"links":{"next":null}}!');
    const tags = new Set([strongEtag(body)]);
    for (let i = 0; i < body.length; i++) {
      const changed = body.slice();
      changed[i] = (changed[i] as number) ^ 1;
      tags.add(strongEtag(changed));
    }
    expect(tags.size).toBe(body.length + 1);
    expect(strongEtag(body.subarray(0, body.length - 1))).not.toBe(strongEtag(body));
  });

  it('depends only on the bytes: not on their alignment or the view they come in', () => {
    const padded = bytesOf(`x${'{"a":1,"memo":"é ✓"}'.repeat(50)}`);
    const unaligned = padded.subarray(1);
    expect(unaligned.byteOffset % 4).not.toBe(0);
    expect(strongEtag(unaligned)).toBe(strongEtag(unaligned.slice()));
    expect(strongEtag(unaligned.slice().buffer)).toBe(strongEtag(unaligned));
  });
});
