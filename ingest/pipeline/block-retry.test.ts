import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockTypes } from '../../proto/block.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { splitBlockItems, splitBlockPath } from '../decode/block-file.ts';
import { BlockFileSource } from '../sources/block-file-source.ts';
import { DirStore } from '../sources/dir-store.ts';
import { STREAMS } from '../testing/fixtures.ts';
import { RejectedFileError } from '../verify/errors.ts';
import { runBlockIngest } from './block-run.ts';

const BLOCKS = path.join(STREAMS, 'data/blockstreams');
const fixturePath = (n: bigint) => path.join(BLOCKS, splitBlockPath(n, '.blk.zstd'));

/** Block 8 without its footer: unreadable, so rejected. */
function brokenBlock8(): Uint8Array {
  const { BlockItem, Block } = blockTypes();
  const items = splitBlockItems(new Uint8Array(zstdDecompressSync(readFileSync(fixturePath(8n))))).filter(
    (bytes) => (BlockItem.decode(bytes) as unknown as { item: string }).item !== 'block_footer',
  );
  return Block.encode({ items }).finish();
}

describe('the block loop after a rejected block', () => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'block-retry-'));
  });
  afterAll(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs the rejection and retries at the next poll, taking the corrected block', async () => {
    const at = (n: bigint, ext: string) => path.join(dir, splitBlockPath(n, ext));
    mkdirSync(path.dirname(at(7n, '.blk.zstd')), { recursive: true });
    copyFileSync(fixturePath(7n), at(7n, '.blk.zstd'));
    writeFileSync(at(8n, '.blk'), brokenBlock8());
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const logs: Record<string, unknown>[] = [];
    const controller = new AbortController();
    const guard = setTimeout(() => controller.abort(), 20_000);
    try {
      const summary = await runBlockIngest({
        source: new BlockFileSource(new DirStore(dir)),
        client,
        startBlock: 7n,
        endBlock: 8n,
        untilIdle: false,
        pollIntervalMs: 50,
        signal: controller.signal,
        log: (line) => {
          logs.push(line);
          if (line.msg === 'block rejected' && logs.filter((l) => l.msg === 'block rejected').length === 2) {
            // The operator (or a re-upload) replaces the bad block; the next poll picks it up.
            rmSync(at(8n, '.blk'));
            copyFileSync(fixturePath(8n), at(8n, '.blk.zstd'));
          }
        },
      });
      expect(summary.blocks).toBe(2);
      expect(summary.cursor?.index).toBe(8n);
    } finally {
      clearTimeout(guard);
      await client.end();
    }
    const rejected = logs.filter((l) => l.msg === 'block rejected');
    expect(rejected.length).toBe(2);
    expect(rejected[0]).toMatchObject({ level: 'error', file: '0000/0000/0000/0000/008.blk' });
    expect(String(rejected[0]?.reason)).toMatch(/footer/);
    const files = await db.sql.query('select index from record_file order by index');
    expect(files.rows).toEqual([{ index: '7' }, { index: '8' }]);
  });

  it('rejects a block file that is no Block protobuf, naming it, instead of failing the loop', async () => {
    const fresh = await createTestDatabase();
    const corrupt = mkdtempSync(path.join(tmpdir(), 'block-corrupt-'));
    const file = path.join(corrupt, splitBlockPath(7n, '.blk'));
    mkdirSync(path.dirname(file), { recursive: true });
    // An item announced 5 bytes long, cut after one: no Block protobuf.
    writeFileSync(file, new Uint8Array([0x0a, 0x05, 0x01]));
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    const logs: Record<string, unknown>[] = [];
    try {
      const run = runBlockIngest({
        source: new BlockFileSource(new DirStore(corrupt)),
        client,
        startBlock: 7n,
        untilIdle: true,
        log: (line) => logs.push(line),
      });
      await expect(run).rejects.toThrow(RejectedFileError);
      expect(logs.find((l) => l.msg === 'block rejected')).toMatchObject({ file: '0000/0000/0000/0000/007.blk' });
    } finally {
      await client.end();
      await fresh.drop();
      rmSync(corrupt, { recursive: true, force: true });
    }
  });

  it('takes no balance snapshot within the initial delay and 15 minutes of the first block', async () => {
    // Blocks 7 and 8 are 2.4 s apart; the first snapshot is due 17 minutes after block 7 (sink/balance-snapshot.ts).
    const snapshots = await db.sql.query('select consensus_timestamp from account_balance_file');
    expect(snapshots.rows).toEqual([]);
  });
});
