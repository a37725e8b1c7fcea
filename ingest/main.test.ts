import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { RECORDSTREAMS, STREAMS } from './testing/fixtures.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

interface Exit {
  code: number | null;
  lines: Record<string, unknown>[];
  stderr: string;
}

/** `npm run ingest -- <args>` as a child process on the test database (or `databaseUrl`); `onLine` may signal it. */
function runCli(
  args: string[],
  onLine?: (line: Record<string, unknown>, kill: () => void) => void,
  databaseUrl = db.url,
): Promise<Exit> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'main.ts'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.trim()) continue;
      const line = JSON.parse(part) as Record<string, unknown>;
      lines.push(line);
      onLine?.(line, () => child.kill('SIGTERM'));
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, lines, stderr })));
}

describe('npm run ingest', () => {
  it('ingests a directory until idle, logging one structured line per file', async () => {
    const exit = await runCli([
      '--source',
      path.join(RECORDSTREAMS, 'v6'),
      '--address-book',
      path.join(STREAMS, 'addressbook/test-v6-sidecar-4n.bin'),
      '--until-idle',
    ]);
    expect(exit.code, exit.stderr).toBe(0);
    const files = exit.lines.filter((l) => l.msg === 'record file ingested');
    expect(files.map((l) => [l.service, l.file, l.count, l.index])).toEqual([
      ['ingest', '2022-07-13T08_46_08.041986003Z.rcd.gz', 1, '5'],
      ['ingest', '2022-07-13T08_46_11.304284003Z.rcd.gz', 2, '6'],
    ]);
    expect(exit.lines.at(-1)).toMatchObject({ msg: 'ingest stopped', files: 2, transactions: 3 });
  });

  it('stops cleanly on SIGTERM while it polls', async () => {
    const exit = await runCli(
      ['--source', path.join(RECORDSTREAMS, 'v6'), '--poll-interval', '60000'],
      (line, kill) => {
        if (line.msg === 'ingest started') setTimeout(kill, 200);
      },
    );
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.lines.at(-1)).toMatchObject({ msg: 'ingest stopped' });
  });

  it('refuses a poll interval that is not a positive number instead of polling without pause', async () => {
    const exit = await runCli(['--source', path.join(RECORDSTREAMS, 'v6'), '--poll-interval', 'soon']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe(
      'ingest: --poll-interval must be a positive number of milliseconds (npm run ingest -- --help lists the options)\n',
    );
  });

  it('checks its options before connecting, and waits for a database it cannot reach, saying which and how long', async () => {
    const nowhere = 'postgres://postgres:postgres@127.0.0.1:1/none';
    const source = path.join(RECORDSTREAMS, 'v6');
    const refused = await runCli(['--source', source, '--poll-interval', '0'], undefined, nowhere);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^ingest: --poll-interval must be a positive number of milliseconds/);
    const unreachable = await runCli(
      ['--source', source, '--until-idle'],
      (line, kill) => {
        if (line.msg === 'database unavailable') kill();
      },
      nowhere,
    );
    expect(unreachable.code).toBe(0);
    expect(unreachable.lines).toContainEqual(
      expect.objectContaining({
        msg: 'database unavailable',
        level: 'warn',
        database: '127.0.0.1:1/none',
        waitMs: 500,
        error: expect.stringContaining('ECONNREFUSED'),
      }),
    );
  });

  it('exits with an error naming the rejected file', async () => {
    const other = await createTestDatabase();
    try {
      const child = await new Promise<Exit>((resolve) => {
        const proc = spawn(
          process.execPath,
          [
            path.join(import.meta.dirname, 'main.ts'),
            '--source',
            path.join(RECORDSTREAMS, 'v6'),
            '--address-book',
            path.join(STREAMS, 'addressbook/testnet'),
            '--until-idle',
          ],
          { env: { ...process.env, DATABASE_URL: other.url }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        proc.stdout.on('data', (c: Buffer) => {
          out += c.toString();
        });
        proc.once('exit', (code) =>
          resolve({
            code,
            lines: out
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as Record<string, unknown>),
            stderr: '',
          }),
        );
      });
      expect(child.code).toBe(1);
      expect(child.lines).toContainEqual(
        expect.objectContaining({
          msg: 'file rejected',
          file: '2022-07-13T08_46_08.041986003Z.rcd.gz',
          reason: 'no valid node signature among 4 signature files',
        }),
      );
    } finally {
      await other.drop();
    }
  });
});
