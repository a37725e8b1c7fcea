import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { DirStore } from '../sources/dir-store.ts';
import { ingestStore, RECORDSTREAMS } from '../testing/fixtures.ts';

/**
 * Nodes upload their signature files a moment apart: a polling ingest that finds too few of them yet waits (a debug
 * line) and ingests the file once they are there; only a file still short of them after the wait is an error.
 */

const FILE_2 = '2022-07-13T08_46_11.304284003Z.rcd';
const LATE_NODES = ['0.0.4', '0.0.5', '0.0.6'];
const BOOK = 'test-v6-sidecar-4n.bin';

let db: TestDatabase;
let dir: string;
let heldBack: string;

beforeEach(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ingest-late-'));
  heldBack = path.join(dir, 'held-back');
  await cp(path.join(RECORDSTREAMS, 'v6'), path.join(dir, 'bucket'), { recursive: true });
  await mkdir(heldBack);
  for (const node of LATE_NODES) await rename(signatureFile(node), path.join(heldBack, node));
});
afterEach(async () => {
  await db.drop();
  await rm(dir, { recursive: true, force: true });
});

const signatureFile = (node: string) => path.join(dir, 'bucket', `record${node}`, `${FILE_2}_sig`);

/** Polls the bucket until `done` says so, collecting the log lines. */
async function pollUntil(done: (lines: Record<string, unknown>[]) => boolean, signatureWaitMs: number) {
  const lines: Record<string, unknown>[] = [];
  const controller = new AbortController();
  const run = ingestStore(db.url, new DirStore(path.join(dir, 'bucket')), BOOK, {
    untilIdle: false,
    pollIntervalMs: 100,
    signatureWaitMs,
    signal: controller.signal,
    log: (line) => {
      lines.push(line);
      if (done(lines)) controller.abort();
    },
  });
  return { lines, run, stop: () => controller.abort() };
}

const ingested = (lines: Record<string, unknown>[]) =>
  lines.filter((line) => line.msg === 'record file ingested').map((line) => line.file);

describe('signature files that arrive late', () => {
  it('are waited for: the file is ingested once they arrive 2 s later, with no error line', async () => {
    const polling = await pollUntil((lines) => ingested(lines).includes(`${FILE_2}.gz`), 30_000);
    setTimeout(async () => {
      for (const node of LATE_NODES) await rename(path.join(heldBack, node), signatureFile(node));
    }, 2_000);
    await polling.run;
    expect(ingested(polling.lines)).toHaveLength(2);
    expect(polling.lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(polling.lines).toContainEqual({
      msg: 'waiting for signature files',
      level: 'debug',
      file: `${FILE_2}.gz`,
      reason: 'consensus not reached: 1 of 4 weight signed the same hash, 2 needed',
    });
  }, 30_000);

  it('make the file an error once the wait is over', async () => {
    const polling = await pollUntil((lines) => lines.some((line) => line.level === 'error'), 500);
    await polling.run;
    const errors = polling.lines.filter((line) => line.level === 'error');
    expect(errors).toEqual([
      {
        msg: 'file rejected',
        level: 'error',
        file: `${FILE_2}.gz`,
        reason: 'consensus not reached: 1 of 4 weight signed the same hash, 2 needed',
        waitedMs: expect.any(Number),
      },
    ]);
    expect(errors[0]?.waitedMs).toBeGreaterThanOrEqual(500);
  }, 30_000);
});
