import { describe, expect, it } from 'vitest';
import { startIngestProcess } from './ingest-process.ts';

type Line = Record<string, unknown>;

describe('the ingest under npm start', () => {
  it('is started again after it exits, waiting longer after each exit in a row', async () => {
    const lines: Line[] = [];
    const ingest = startIngestProcess({
      source: 'unused',
      databaseUrl: 'postgres://unused',
      log: (line) => lines.push(line),
      argv: ['-e', 'process.exit(3)'],
      initialWaitMs: 50,
      maxWaitMs: 200,
    });
    await expect.poll(() => ingest.restarts, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await ingest.stop();
    expect(lines.slice(0, 3)).toEqual([
      { msg: 'the ingest exited: restarting it', level: 'warn', code: 3, signal: null, waitMs: 50 },
      { msg: 'the ingest exited: restarting it', level: 'warn', code: 3, signal: null, waitMs: 100 },
      { msg: 'the ingest exited: restarting it', level: 'warn', code: 3, signal: null, waitMs: 200 },
    ]);
  });

  it('is started again after a kill, and not after stop()', async () => {
    const lines: Line[] = [];
    const ingest = startIngestProcess({
      source: 'unused',
      databaseUrl: 'postgres://unused',
      log: (line) => lines.push(line),
      argv: ['-e', 'setInterval(() => {}, 1000); process.kill(process.pid, "SIGKILL")'],
      initialWaitMs: 50,
    });
    await expect.poll(() => ingest.restarts, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatchObject({ signal: 'SIGKILL', waitMs: 50 });
    await ingest.stop();
    const restarts = ingest.restarts;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ingest.restarts).toBe(restarts);
  });

  it('is not started again after it refused its settings (exit 2)', async () => {
    const lines: Line[] = [];
    let refused = 0;
    const ingest = startIngestProcess({
      source: 'unused',
      databaseUrl: 'postgres://unused',
      log: (line) => lines.push(line),
      argv: ['-e', 'process.exit(2)'],
      initialWaitMs: 50,
      onRefused: () => refused++,
    });
    await expect.poll(() => refused, { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ingest.stop();
    expect([ingest.restarts, lines]).toEqual([0, []]);
  });
});
