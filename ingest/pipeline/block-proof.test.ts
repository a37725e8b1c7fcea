import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockTypes } from '../../proto/block.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { splitBlockItems, splitBlockPath } from '../decode/block-file.ts';
import { STREAMS } from '../testing/fixtures.ts';
import { ingestBlockDir } from '../testing/ingest-blocks.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { BlockIngestOptions } from './block-run.ts';

const WRBS = path.join(STREAMS, 'data/wrbs');
const book = (name: string) => new Uint8Array(readFileSync(path.join(STREAMS, 'bootstrap-addressbook', name)));

interface ProofItem {
  item: string;
  block_proof?: { signed_record_file_proof?: { record_file_signatures: { signatures_bytes: Uint8Array }[] } };
}

/** Wrapped record block `n` with every byte of its first `corrupt` proof signatures flipped in one place. */
function wrappedBlock(n: bigint, corrupt: number): Uint8Array {
  const bytes = new Uint8Array(zstdDecompressSync(readFileSync(path.join(WRBS, splitBlockPath(n, '.blk.zstd')))));
  const { BlockItem, Block } = blockTypes();
  const items = splitBlockItems(bytes).map((raw) => {
    const item = BlockItem.decode(raw) as unknown as ProofItem;
    const signatures = item.block_proof?.signed_record_file_proof?.record_file_signatures;
    if (!signatures) return raw;
    for (const s of signatures.slice(0, corrupt)) {
      const copy = new Uint8Array(s.signatures_bytes);
      copy[10] = (copy[10] ?? 0) ^ 0xff;
      s.signatures_bytes = copy;
    }
    return BlockItem.encode(item).finish();
  });
  return Block.encode({ items }).finish();
}

function writeBlock(dir: string, n: bigint, bytes: Uint8Array): void {
  const file = path.join(dir, splitBlockPath(n, '.blk'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

const ingest = (db: TestDatabase, dir: string, extra: Partial<BlockIngestOptions> = {}) =>
  ingestBlockDir(db.url, dir, extra);

const count = async (db: TestDatabase, table: string) =>
  (await db.sql.query(`select count(*)::int as n from ${table}`)).rows[0]?.n as number;

describe('wrapped record block proofs', () => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'wrb-proof-'));
  });
  afterAll(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects block 0 when too few signatures verify, writing nothing, naming the block and the reason', async () => {
    // 7 nodes signed block 0; the 13-node bootstrap book needs 5. With 3 bad signatures 4 remain.
    writeBlock(dir, 0n, wrappedBlock(0n, 3));
    const run = ingest(db, dir, { startBlock: 0n, endBlock: 0n, bootstrapAddressBook: book('mainnet') });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RejectedFileError);
    expect((error as RejectedFileError).file).toBe('0000/0000/0000/0000/000.blk');
    expect((error as RejectedFileError).reason).toMatch(
      /^block 0 proof signatures do not verify the record file hash 420fffe6.*consensus not reached: 4 of 13 weight/,
    );
    for (const table of ['record_file', 'transaction', 'address_book', 'crypto_transfer']) {
      expect(await count(db, table)).toBe(0);
    }
  });

  it('rejects a block signed by none of the book nodes', async () => {
    writeBlock(dir, 0n, wrappedBlock(0n, 0));
    const run = ingest(db, dir, { startBlock: 0n, endBlock: 0n, bootstrapAddressBook: book('testnet') });
    await expect(run).rejects.toThrow(/0000\/000\.blk: block 0 proof.*no valid node signature among 7/);
    expect(await count(db, 'record_file')).toBe(0);
  });

  it('accepts block 0 with two bad signatures (5 of 13 still verify) and stores the bootstrap book', async () => {
    writeBlock(dir, 0n, wrappedBlock(0n, 2));
    const run = await ingest(db, dir, { startBlock: 0n, endBlock: 0n, bootstrapAddressBook: book('mainnet') });
    expect(run.blocks).toBe(1);
    expect(await count(db, 'record_file')).toBe(1);
    expect(await count(db, 'address_book')).toBe(1);
  });

  it('needs an address book for a wrapped record block', async () => {
    const empty = await createTestDatabase();
    try {
      await expect(ingest(empty, WRBS, { startBlock: 0n, endBlock: 0n })).rejects.toThrow(/no address book/);
      expect(await count(empty, 'record_file')).toBe(0);
    } finally {
      await empty.drop();
    }
  });
});
