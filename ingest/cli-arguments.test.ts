import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { STREAMS } from './testing/fixtures.ts';

/** Native block files 7 and 8: a source that does not start at block 0. */
const BLOCKS = path.join(STREAMS, 'data/blockstreams');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** `npm run ingest -- <args>` as a child process on the test database. */
function runCli(
  args: string[],
  databaseUrl = db.url,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'main.ts'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const failure = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; error?: string })
    .find((line) => line.msg === 'ingest failed');

describe('npm run ingest, as a user meets it', () => {
  it('lists every option with --help and exits 0', async () => {
    const exit = await runCli(['--help']);
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(/^usage: npm run ingest -- --source/);
    expect(exit.stdout).toContain('--start-block <n | -1>');
  });

  it('answers a wrong option with one line and no stack trace, exit 2', async () => {
    const exit = await runCli(['--source', BLOCKS, '--strat-block', '-1']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toBe('ingest: unknown option --strat-block (npm run ingest -- --help lists the options)\n');
  });

  it('refuses a source directory that does not exist in one line, exit 2', async () => {
    const exit = await runCli(['--source', '/nonexistent', '--until-idle']);
    expect([exit.code, exit.stdout, exit.stderr]).toEqual([
      2,
      '',
      'ingest: /nonexistent does not exist: give a directory of stream files, s3://BUCKET/PREFIX, gs://BUCKET/PREFIX or blocknode://HOST:PORT\n',
    ]);
  });

  it.each([
    [
      'notaurl',
      'ingest: DATABASE_URL=notaurl is not a Postgres URL: set it to postgres://USER:PASSWORD@HOST:PORT/DATABASE\n',
    ],
    [
      'postgres://u:secret@nohost.invalid/db',
      'ingest: DATABASE_URL=postgres://u:***@nohost.invalid/db names a host that does not exist (nohost.invalid): check DATABASE_URL\n',
    ],
  ])('gives up on DATABASE_URL=%s in one line, exit 2', async (databaseUrl, line) => {
    const exit = await runCli(['--source', BLOCKS, '--until-idle'], databaseUrl);
    expect([exit.code, exit.stdout, exit.stderr]).toEqual([2, '', line]);
  });

  it('says that a directory of block files is read with --stream blocks', async () => {
    const exit = await runCli(['--source', BLOCKS, '--until-idle']);
    expect(exit.code).toBe(1);
    expect(failure(exit.stdout)?.error).toBe(
      `${BLOCKS} holds block files, not record streams: read them with --stream blocks`,
    );
  });

  it('stops an until-idle run on an empty database whose source starts after block 0, saying where it starts', async () => {
    const exit = await runCli(['--stream', 'blocks', '--source', BLOCKS, '--until-idle']);
    expect(exit.code).toBe(1);
    expect(failure(exit.stdout)?.error).toMatch(/starts at block 7, not 0: --start-block -1 \(or 7\) starts there$/);
  });

  it('starts where the source starts with --start-block -1, written with a space', async () => {
    const exit = await runCli(['--stream', 'blocks', '--source', BLOCKS, '--start-block', '-1', '--until-idle']);
    expect(exit.code, exit.stdout + exit.stderr).toBe(0);
    const { rows } = await db.sql.query<{ index: string }>('select index from record_file order by index');
    expect(rows.map((row) => Number(row.index))).toEqual([7, 8]);
  });
});
