import pg from 'pg';
import { type BlockIngestOptions, runBlockIngest } from '../pipeline/block-run.ts';
import { BlockFileSource } from '../sources/block-file-source.ts';
import { DirStore } from '../sources/dir-store.ts';

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
