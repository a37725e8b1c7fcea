import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockTypes } from '../../proto/block.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { splitBlockItems, splitBlockPath } from '../decode/block-file.ts';
import { STREAMS } from '../testing/fixtures.ts';
import { ingestBlockDir } from '../testing/ingest-blocks.ts';
import type { BlockIngestOptions } from './block-run.ts';

const BLOCKS = path.join(STREAMS, 'data/blockstreams');
const MAINNET_BOOK = new Uint8Array(readFileSync(path.join(STREAMS, 'bootstrap-addressbook/mainnet')));
const WRBS = path.join(STREAMS, 'data/wrbs');
const HASH_7 = '8b98440b3fa8b13d9d7f82e92ceb246c9707cf6c11ba38997385e7ea1097f06d752736753fe40b9ff06096211a11066a';
const HASH_8 = '78ef36dc7c7cb57cfb212966b768a0fbc9b0f5045574c6b3bfa0cccdcef9401b7edda1cf05ada60dedd7e0b435e0d81d';

const ingest = (db: TestDatabase, dir: string, extra: Partial<BlockIngestOptions> = {}) =>
  ingestBlockDir(db.url, dir, extra);

const fixtureBlock = (root: string, n: bigint) =>
  new Uint8Array(zstdDecompressSync(readFileSync(path.join(root, splitBlockPath(n, '.blk.zstd')))));

const recordFiles = (db: TestDatabase) =>
  db.sql
    .query(
      `select name, index, count, hash, prev_hash, file_hash, consensus_start, consensus_end, version,
              round_start, round_end, hapi_version_minor, software_version_minor,
              encode(wrapped_record_block_hash, 'hex') as wrapped, encode(previous_wrapped_record_block_hash, 'hex') as previous_wrapped
         from record_file order by index`,
    )
    .then((r) => r.rows);

describe('native block files', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('starts at the earliest block with -1 and writes blocks 7 and 8 as a chain', async () => {
    const run = await ingest(db, BLOCKS, { startBlock: -1n });
    expect([run.blocks, run.transactions]).toEqual([2, 2]);
    expect(await recordFiles(db)).toMatchObject([
      {
        name: '0000000000000000007.blk',
        index: '7',
        count: '1',
        version: 7,
        file_hash: '',
        hash: HASH_7,
        prev_hash: 'e11e44567f5ca4ae23b75467b75d83c8880d0888f5c4154f08b8f221bf269b2e4f3f1686e8dcb9694beaaf287313b0fb',
        consensus_start: '1770842061390565879',
        consensus_end: '1770842061390565879',
        round_start: '179',
        round_end: '213',
        hapi_version_minor: 73,
        software_version_minor: 73,
      },
      {
        name: '0000000000000000008.blk',
        index: '8',
        count: '1',
        hash: HASH_8,
        prev_hash: HASH_7,
        consensus_start: '1770842063775529380',
        consensus_end: '1770842063775529380',
        round_start: '214',
        round_end: '248',
      },
    ]);
    const transactions = await db.sql.query(
      `select consensus_timestamp, type, result, payer_account_id, index from transaction order by 1`,
    );
    expect(transactions.rows).toEqual([
      { consensus_timestamp: '1770842061390565879', type: 55, result: 22, payer_account_id: '2', index: 0 },
      { consensus_timestamp: '1770842063775529380', type: 14, result: 22, payer_account_id: '2', index: 0 },
    ]);
    const hashes = await db.sql.query('select count(*)::int as n from transaction_hash');
    expect(hashes.rows[0]?.n).toBe(2);
  });

  it('replays as a no-op and resumes after the newest block', async () => {
    const run = await ingest(db, BLOCKS, { startBlock: 0n });
    expect(run.blocks).toBe(0);
    expect(run.logs.find((l) => l.msg === 'block ingest started')?.start).toBe('9');
    expect((await recordFiles(db)).length).toBe(2);
  });
});

describe('block sources and edge cases', () => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'blocks-'));
  });
  afterAll(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a block whose only transaction is a system transaction with no transaction rows', async () => {
    // Block 7 without its transaction result (and the state changes of that result): both signed
    // transactions are then system transactions.
    const { BlockItem, Block } = blockTypes();
    const items = splitBlockItems(fixtureBlock(BLOCKS, 7n)).filter((bytes) => {
      const item = BlockItem.decode(bytes) as unknown as { item: string };
      return item.item !== 'transaction_result' && item.item !== 'state_changes';
    });
    writeFileSync(path.join(dir, '0000000000000000007.blk'), Block.encode({ items }).finish());
    const run = await ingest(db, dir, { startBlock: 7n, endBlock: 7n });
    expect([run.blocks, run.transactions]).toEqual([1, 0]);
    expect(await recordFiles(db)).toMatchObject([
      { index: '7', count: '0', consensus_start: '1770842059973945087', consensus_end: '1770842059973945087' },
    ]);
    expect((await db.sql.query('select count(*)::int as n from transaction')).rows[0]?.n).toBe(0);
  });

  it('rejects a block that does not chain onto the last one', async () => {
    // Block 8 of the fixtures chains onto the real block 7, not onto the edited one above.
    writeFileSync(path.join(dir, '0000000000000000008.blk.gz'), gzipSync(fixtureBlock(BLOCKS, 8n)));
    await expect(ingest(db, dir)).rejects.toThrow(/previous block hash .* does not match/);
  });
});

describe('wrapped record blocks', () => {
  const cases = [
    { block: 0n, name: '2019-09-13T21_53_51.396440Z.rcd', version: 2, count: '1' },
    { block: 26591040n, name: '2022-01-01T00_00_00.252365821Z.rcd', version: 5, count: '35' },
    { block: 82297471n, name: '2025-07-23T20_37_42.076472454Z.rcd', version: 6, count: '47' },
  ];
  for (const c of cases) {
    it(`writes block ${c.block} as record file ${c.name}`, async () => {
      const db = await createTestDatabase();
      try {
        const run = await ingest(db, WRBS, {
          startBlock: c.block,
          endBlock: c.block,
          bootstrapAddressBook: MAINNET_BOOK,
          // Block 82297471 (2025) is signed by keys newer than the bootstrap book: one of its signers verifies.
          ...(c.block === 82297471n ? { consensus: { ratio: 0 } } : {}),
        });
        expect(run.blocks).toBe(1);
        const [file] = await recordFiles(db);
        expect(file).toMatchObject({ name: c.name, index: String(c.block), version: c.version, count: c.count });
        expect(file.previous_wrapped.slice(0, 12)).toBe('bec021b4f368');
        expect(file.wrapped).toHaveLength(96);
        const written = await db.sql.query('select count(*)::int as n from transaction');
        expect(written.rows[0]?.n).toBe(Number(c.count));
      } finally {
        await db.drop();
      }
    });
  }
});
