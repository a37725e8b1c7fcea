import { describe, expect, it } from 'vitest';
import { type LogLine, RepeatedLines } from './repeated-lines.ts';

function lines() {
  const written: LogLine[] = [];
  let now = 0;
  const repeated = new RepeatedLines((line) => written.push(line), { windowMs: 10_000, now: () => now });
  return {
    written,
    repeated,
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe('RepeatedLines', () => {
  it('writes the first line of a failure and holds back those like it within the window', () => {
    const { written, repeated, at } = lines();
    for (let ms = 0; ms < 9_000; ms += 300) {
      at(ms);
      repeated.write('db down', { msg: 'request failed', at: ms });
    }
    expect(written).toEqual([{ msg: 'request failed', at: 0 }]);
  });

  it('counts the held-back lines on the next line like them once the window is over', () => {
    const { written, repeated, at } = lines();
    for (const ms of [0, 1_000, 2_000, 12_000]) {
      at(ms);
      repeated.write('db down', { msg: 'request failed', at: ms });
    }
    expect(written).toEqual([
      { msg: 'request failed', at: 0 },
      { msg: 'request failed', at: 12_000, repeated: 2, summary: '2 more like this in the last 12 s' },
    ]);
  });

  it('summarises a window that is over on a flush, and not before', () => {
    const { written, repeated, at } = lines();
    repeated.write('db down', { msg: 'request failed' });
    at(500);
    repeated.write('db down', { msg: 'request failed' });
    at(9_999);
    repeated.flush();
    expect(written).toHaveLength(1);
    at(10_000);
    repeated.flush();
    repeated.flush();
    expect(written).toEqual([
      { msg: 'request failed' },
      { msg: 'request failed', repeated: 1, summary: '1 more like this in the last 10 s' },
    ]);
  });

  it('writes lines of different failures each, and a failure that does not repeat without a summary', () => {
    const { written, repeated, at } = lines();
    repeated.write('a', { msg: 'a' });
    repeated.write('b', { msg: 'b' });
    at(20_000);
    repeated.flush();
    repeated.write('a', { msg: 'a' });
    expect(written).toEqual([{ msg: 'a' }, { msg: 'b' }, { msg: 'a' }]);
  });
});
