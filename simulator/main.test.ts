import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions } from './main.ts';
import { simulate } from './run.ts';
import { readVerifiedOutput } from './testing/read-output.ts';

describe('simulate options', () => {
  it('turns a duration into 2-second files and defaults to 30 files unless live', () => {
    expect(parseOptions(['--out', 'x', '--duration', '9']).files).toBe(5);
    expect(parseOptions(['--out', 'x']).files).toBe(30);
    expect(parseOptions(['--out', 'x', '--live']).files).toBeUndefined();
    expect(parseOptions(['--out', 'x', '--start', '2024-02-03T04:05:06Z']).startNs).toBe(1706933106000000000n);
  });

  it('rejects what it cannot honour', () => {
    expect(() => parseOptions([])).toThrow(/--out is required/);
    expect(() => parseOptions(['--out', 'x', '--files', '2', '--duration', '4'])).toThrow(/not both/);
    expect(() => parseOptions(['--out', 'x', '--format', 'csv'])).toThrow(/record, block or both/);
    expect(() => parseOptions(['--out', 'x', '--tps', '0'])).toThrow(/--tps/);
    expect(() => parseOptions(['--out', 'x', '--bogus'])).toThrow();
  });

  it('signs with as many nodes as asked, each file verified by all of them', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'simulator-nodes-'));
    try {
      await simulate(parseOptions(['--out', out, '--files', '1', '--tps', '20', '--nodes', '7']));
      expect(readVerifiedOutput(out)[0]?.signers).toHaveLength(7);
      await expect(simulate(parseOptions(['--out', `${out}-8`, '--files', '1', '--nodes', '8']))).rejects.toThrow(
        /--nodes/,
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
      rmSync(`${out}-8`, { recursive: true, force: true });
    }
  }, 60_000);
});
