import { readFileSync } from 'node:fs';
import path from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/local-stack/free-port.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { splitBlockItems, splitBlockPath } from '../decode/block-file.ts';
import { fromHex } from '../decode/hash.ts';
import { type BlockIngestOptions, runBlockIngest } from '../pipeline/block-run.ts';
import { type BlockNodeFaults, type BlockNodeServer, startBlockNodeServer } from '../testing/block-node-server.ts';
import { STREAMS } from '../testing/fixtures.ts';
import { chainedBlocks } from '../testing/generated-blocks.ts';
import { SourceUnavailableError } from '../transient-errors.ts';
import { BlockNodeSource } from './block-node-source.ts';

const HASH_8 = '78ef36dc7c7cb57cfb212966b768a0fbc9b0f5045574c6b3bfa0cccdcef9401b7edda1cf05ada60dedd7e0b435e0d81d';

function fixture(n: bigint): Uint8Array[] {
  const file = path.join(STREAMS, 'data/blockstreams', splitBlockPath(n, '.blk.zstd'));
  return splitBlockItems(new Uint8Array(zstdDecompressSync(readFileSync(file))));
}

/** Fixture blocks 7 and 8, then generated blocks 9–12 chaining onto 8. */
const BLOCKS = new Map<bigint, Uint8Array[]>([
  [7n, fixture(7n)],
  [8n, fixture(8n)],
  ...chainedBlocks(fromHex(HASH_8), 9n, 4, 1770842066000000000n),
]);

let server: BlockNodeServer | undefined;
const databases: TestDatabase[] = [];

async function serve(faults: BlockNodeFaults = {}): Promise<BlockNodeServer> {
  server = await startBlockNodeServer(BLOCKS, faults);
  return server;
}

async function ingest(url: string, extra: Partial<BlockIngestOptions> = {}) {
  const db = await createTestDatabase();
  databases.push(db);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const retries: string[] = [];
  const source = new BlockNodeSource(url, { initialBackoffMs: 10, onRetry: (reason) => retries.push(reason) });
  try {
    const run = await runBlockIngest({ source, client, log: () => {}, ...extra });
    const indexes = await db.sql.query<{ index: string }>('select index from record_file order by index');
    return { run, retries, indexes: indexes.rows.map((r) => Number(r.index)) };
  } finally {
    source.close();
    await client.end();
  }
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

beforeAll(() => {
  expect(BLOCKS.size).toBe(6);
});

afterAll(async () => {
  for (const db of databases) await db.drop();
});

describe('block node source over gRPC', () => {
  it('starts at the earliest available block with -1 and stops at the end block', async () => {
    const node = await serve();
    const { run, indexes } = await ingest(node.url, { startBlock: -1n, endBlock: 12n });
    expect(indexes).toEqual([7, 8, 9, 10, 11, 12]);
    expect(run.transactions).toBe(2);
    expect(node.subscriptions).toEqual([{ start: 7n, end: 12n }]);
  });

  it('starts exactly at the block asked for and stops after the end block', async () => {
    const node = await serve();
    const { indexes } = await ingest(node.url, { startBlock: 9n, endBlock: 10n });
    expect(indexes).toEqual([9, 10]);
    expect(node.subscriptions).toEqual([{ start: 9n, end: 10n }]);
  });

  it('streams without an end block until the node has nothing more (until idle)', async () => {
    const node = await serve();
    const { indexes } = await ingest(node.url, { startBlock: 8n, untilIdle: true });
    expect(indexes).toEqual([8, 9, 10, 11, 12]);
    expect(node.subscriptions[0]?.end).toBe((1n << 64n) - 1n);
  });

  it('resumes after a dropped connection, a gap and a repeated block with no block missing or twice', async () => {
    const node = await serve({ dropInside: 9n, skip: 10n, repeatBefore: 11n });
    const { indexes, retries } = await ingest(node.url, { startBlock: 7n, endBlock: 12n });
    expect(indexes).toEqual([7, 8, 9, 10, 11, 12]);
    expect(retries).toHaveLength(2);
    expect(retries[1]).toMatch(/skipped from 10 to 11/);
    // After the drop the stream resumes from the first block not yet written (what was in flight is lost with
    // the connection), and after the gap from the block that was skipped.
    const [first, afterDrop, afterGap] = node.subscriptions.map((s) => s.start);
    expect(first).toBe(7n);
    expect(afterDrop).toBeGreaterThanOrEqual(7n);
    expect(afterDrop).toBeLessThanOrEqual(9n);
    expect(afterGap).toBe(10n);
    expect(node.subscriptions).toHaveLength(3);
  });

  it('rejects a message over 36 MiB with a clear error and keeps the blocks before it', async () => {
    const node = await serve({ oversized: 8n });
    const db = await createTestDatabase();
    databases.push(db);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const source = new BlockNodeSource(node.url, { initialBackoffMs: 10 });
    try {
      await expect(runBlockIngest({ source, client, startBlock: 7n, endBlock: 12n, log: () => {} })).rejects.toThrow(
        /message of 38797\d+ bytes exceeds the 37748736-byte \(36 MiB\) limit/,
      );
      const indexes = await db.sql.query('select index from record_file');
      expect(indexes.rows).toEqual([{ index: '7' }]);
    } finally {
      source.close();
      await client.end();
    }
  });

  it('gives up on a block node it cannot reach after its attempts, as a source unavailable for now', async () => {
    const source = new BlockNodeSource(`blocknode://127.0.0.1:${await freePort()}`, {
      initialBackoffMs: 1,
      maxAttempts: 2,
    });
    const db = await createTestDatabase();
    databases.push(db);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const error = await runBlockIngest({ source, client, startBlock: 7n, log: () => {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceUnavailableError);
      expect((error as Error).message).toMatch(/failed 2 times/);
    } finally {
      source.close();
      await client.end();
    }
  });
});
