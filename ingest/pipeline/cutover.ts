/**
 * The switch from record streams to block streams. Record files are ingested while there are any; once the
 * record stream has nothing new and the block source serves the block after the newest record file (its index
 * + 1), blocks take over for good. The block loop starts from the cursor the record loop left, so the first
 * block follows the last record file with no block missing and none written twice.
 */
import { BLOCK_FILE_VERSION } from '../derive/block.ts';
import { sleep } from '../sleep.ts';
import type { BlockSource } from '../sources/block-source.ts';
import { type BlockIngestOptions, type BlockIngestSummary, loadBlockCursor, runBlockIngest } from './block-run.ts';
import { type IngestOptions, type IngestSummary, runIngest } from './run.ts';

export interface CutoverOptions {
  readonly records: IngestOptions;
  readonly blocks: Omit<BlockIngestOptions, 'client' | 'signal' | 'untilIdle' | 'source'> & { source: BlockSource };
  readonly untilIdle?: boolean;
  readonly pollIntervalMs?: number;
}

export interface CutoverSummary {
  readonly records: IngestSummary[];
  readonly blocks: BlockIngestSummary | undefined;
}

/** Whether the block source already has the block that follows the newest record file. */
async function blocksContinue(options: CutoverOptions): Promise<boolean> {
  const cursor = await loadBlockCursor(options.records.client);
  const next = cursor ? cursor.index + 1n : undefined;
  if (next === undefined) return false;
  const probe = options.blocks.source.blocks(next, { end: next, untilIdle: true });
  for await (const block of probe) return block.number === next;
  return false;
}

export async function runWithCutover(options: CutoverOptions): Promise<CutoverSummary> {
  const { signal, client } = options.records;
  const records: IngestSummary[] = [];
  const runBlocks = () =>
    runBlockIngest({
      ...options.blocks,
      client,
      ...(signal ? { signal } : {}),
      ...(options.untilIdle !== undefined ? { untilIdle: options.untilIdle } : {}),
    });
  // Once a block has been written the record stream is over for this database.
  const cursor = await loadBlockCursor(client);
  if (cursor && (cursor.version === BLOCK_FILE_VERSION || cursor.wrappedHash))
    return { records, blocks: await runBlocks() };
  while (!signal?.aborted) {
    records.push(await runIngest({ ...options.records, untilIdle: true }));
    if (await blocksContinue(options)) return { records, blocks: await runBlocks() };
    if (options.untilIdle) break;
    await sleep(options.pollIntervalMs ?? 2_000, signal);
  }
  return { records, blocks: undefined };
}
