import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type BlockIngestOptions, runBlockIngest } from '../pipeline/block-run.ts';
import { BlockFileSource } from '../sources/block-file-source.ts';
import { DirStore } from '../sources/dir-store.ts';
import { writeNativeBlocks } from './native-blocks.ts';

/** Ingests the block files of `dir` into the database at `databaseUrl` until idle; returns the summary and logs. */
export async function ingestBlockDir(databaseUrl: string, dir: string, extra: Partial<BlockIngestOptions> = {}) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const logs: Record<string, unknown>[] = [];
  try {
    const summary = await runBlockIngest({
      source: new BlockFileSource(new DirStore(dir)),
      client,
      untilIdle: true,
      log: (line) => logs.push(line),
      ...extra,
    });
    return { ...summary, logs };
  } finally {
    await client.end();
  }
}

/** Writes `blocks` as native block files numbered from 0 into a temporary directory and ingests them from block 0. */
export async function ingestNativeBlocks(databaseUrl: string, blocks: Parameters<typeof writeNativeBlocks>[2]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'native-blocks-'));
  try {
    writeNativeBlocks(dir, 0n, blocks);
    return await ingestBlockDir(databaseUrl, dir, { startBlock: 0n });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
