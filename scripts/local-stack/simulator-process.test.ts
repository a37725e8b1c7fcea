import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVerifiedOutput } from '../../simulator/testing/read-output.ts';
import { startSimulatorProcess } from './simulator-process.ts';

const out = mkdtempSync(path.join(tmpdir(), 'simulator-process-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const recordFiles = () => {
  try {
    return readdirSync(path.join(out, 'recordstreams', 'record0.0.3')).filter((n) => n.endsWith('.rcd_sig')).length;
  } catch {
    return 0;
  }
};

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the simulator as a local-stack process', () => {
  it('streams live files into its directory and continues the same chain after a restart', async () => {
    const first = await startSimulatorProcess({ out, tps: 20, output: 'ignore' });
    expect(first.addressBook).toBe(path.join(out, 'address-book.bin'));
    await until(() => recordFiles() >= 2, 30_000);
    await first.stop();
    const before = recordFiles();
    const second = await startSimulatorProcess({ out, tps: 20, output: 'ignore' });
    await until(() => recordFiles() >= before + 1, 30_000);
    await second.stop();
    const files = readVerifiedOutput(out);
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(files.map((f) => f.parsed.blockNumber)).toEqual(files.map((_, i) => BigInt(i)));
  }, 90_000);

  it('stops when the process that started it dies without stopping it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'simulator-orphan-'));
    const module = path.join(import.meta.dirname, 'simulator-process.ts');
    const script = `import { startSimulatorProcess } from ${JSON.stringify(module)};
      const s = await startSimulatorProcess({ out: ${JSON.stringify(dir)}, output: 'ignore' });
      console.log(s.child.pid); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const pid = await new Promise<number>((resolve) =>
        parent.stdout.once('data', (data) => resolve(Number(String(data).trim()))),
      );
      parent.kill('SIGKILL');
      const alive = () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      await until(() => !alive(), 20_000);
    } finally {
      parent.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
