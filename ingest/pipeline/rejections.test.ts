import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { DirStore } from '../sources/dir-store.ts';
import { rowCounts, tableContents } from '../testing/database-facts.ts';
import { ingestFixture, ingestStore, RECORDSTREAMS } from '../testing/fixtures.ts';
import { RejectedFileError } from '../verify/errors.ts';

const FILE_1 = '2022-07-13T08_46_08.041986003Z.rcd';
const FILE_2 = '2022-07-13T08_46_11.304284003Z.rcd';
const NODES = ['0.0.3', '0.0.4', '0.0.5', '0.0.6'];
const BOOK = 'test-v6-sidecar-4n.bin';

let db: TestDatabase;
let dir: string;

beforeEach(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'ingest-v6-'));
  await cp(path.join(RECORDSTREAMS, 'v6'), dir, { recursive: true });
});
afterEach(async () => {
  await db.drop();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the ingest over the copied folder; returns the rejection it ended with. */
async function rejection(): Promise<RejectedFileError> {
  const error = await ingestStore(db.url, new DirStore(dir), BOOK).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RejectedFileError);
  return error as RejectedFileError;
}

async function transactionTimestamps(): Promise<string[]> {
  const result = await db.sql.query('select consensus_timestamp::text from transaction order by 1');
  return result.rows.map((r) => r.consensus_timestamp);
}

/** Rewrites the data file of every node (they are byte-identical copies). */
async function editDataFile(name: string, edit: (bytes: Buffer) => Buffer): Promise<void> {
  for (const node of NODES) {
    const file = path.join(dir, `record${node}`, `${name}.gz`);
    await writeFile(file, edit(await readFile(file)));
  }
}

describe('a rejected record file', () => {
  it('with a corrupted byte writes nothing of it and names the file and the reason', async () => {
    // One bit of the end running hash: the protobuf still parses, the bytes no longer hash as signed.
    await editDataFile(FILE_2, (bytes) => {
      const plain = gunzipSync(bytes);
      const at = plain.indexOf(Buffer.from('3064b824b8b9f9ec', 'hex'));
      plain[at] = (plain[at] ?? 0) ^ 0x01;
      return gzipSync(plain);
    });
    const error = await rejection();
    expect(error.file).toBe(`${FILE_2}.gz`);
    expect(error.reason).toMatch(/^file hash [0-9a-f]{96} does not match the signed hash ed518c8d05f4/);
    // The file before it was verified and written on its own.
    expect(await transactionTimestamps()).toEqual(['1657701968041986003']);
    const files = await db.sql.query('select name from record_file');
    expect(files.rows).toEqual([{ name: `${FILE_1}.gz` }]);
  });

  it('with signatures over another hash is refused for lack of consensus on its hash', async () => {
    for (const node of NODES) {
      await cp(path.join(dir, `record${node}`, `${FILE_1}_sig`), path.join(dir, `record${node}`, `${FILE_2}_sig`));
    }
    const error = await rejection();
    expect(error.file).toBe(`${FILE_2}.gz`);
    expect(error.reason).toMatch(/does not match the signed hash 69a4354de5ae/);
    expect(await transactionTimestamps()).toEqual(['1657701968041986003']);
  });

  it('with a bad signature from all but one node is refused: one node is less than a third', async () => {
    for (const node of NODES.slice(1)) {
      const file = path.join(dir, `record${node}`, `${FILE_1}_sig`);
      const bytes = await readFile(file);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
      await writeFile(file, bytes);
    }
    const error = await rejection();
    expect(error.file).toBe(`${FILE_1}.gz`);
    expect(error.reason).toBe('consensus not reached: 1 of 4 weight signed the same hash, 2 needed');
    // Every node's signature file is there: none still to come could change that.
    expect(error.signaturesPending).toBe(false);
    expect(await rowCounts(db.sql)).toEqual({});
  });

  it('with too few signatures is refused, named as listed', async () => {
    await rm(path.join(dir, 'record0.0.3', `${FILE_2}_sig`));
    await rm(path.join(dir, 'record0.0.4', `${FILE_2}_sig`));
    await rm(path.join(dir, 'record0.0.5', `${FILE_2}_sig`));
    const error = await rejection();
    expect(error.file).toBe(`${FILE_2}.gz`);
    expect(error.reason).toBe('consensus not reached: 1 of 4 weight signed the same hash, 2 needed');
    expect(error.signaturesPending).toBe(true);
    expect(await transactionTimestamps()).toEqual(['1657701968041986003']);
  });

  it('without any signature file is the file refused, not the signed file after it', async () => {
    for (const node of NODES) await rm(path.join(dir, `record${node}`, `${FILE_1}_sig`));
    const error = await rejection();
    expect(error.file).toBe(`${FILE_1}.gz`);
    expect(error.reason).toBe('no valid node signature among 0 signature files');
    expect(await rowCounts(db.sql)).toEqual({});
  });

  it('reads a sidecar missing on the chosen node from another node that has it', async () => {
    const sidecar = '2022-07-13T08_46_11.304284003Z_01.rcd.gz';
    for (const node of NODES.slice(0, 3)) await rm(path.join(dir, `record${node}`, 'sidecar', sidecar));
    const run = await ingestStore(db.url, new DirStore(dir), BOOK);
    expect(run.files).toBe(2);
    const { rows } = await db.sql.query('select name from sidecar_file');
    expect(rows).toEqual([{ name: sidecar }]);
  });

  it('names the sidecar missing on every node', async () => {
    const sidecar = '2022-07-13T08_46_11.304284003Z_01.rcd.gz';
    for (const node of NODES) await rm(path.join(dir, `record${node}`, 'sidecar', sidecar));
    const error = await rejection();
    expect([error.file, error.reason]).toEqual([`${FILE_2}.gz`, `sidecar ${sidecar} is missing on every node`]);
  });

  it('with one node signature that does not verify is ingested, with a warning naming the node', async () => {
    const file = path.join(dir, 'record0.0.4', `${FILE_2}_sig`);
    const bytes = await readFile(file);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
    await writeFile(file, bytes);
    const run = await ingestStore(db.url, new DirStore(dir), BOOK);
    expect(run.files).toBe(2);
    expect(run.logs.filter((line) => line.msg === 'invalid signature file')).toEqual([
      {
        msg: 'invalid signature file',
        level: 'warn',
        file: `${FILE_2}.gz`,
        node: '0.0.4',
        reason: expect.stringMatching(/does not verify with the node key|unreadable signature file/),
      },
    ]);
  });

  it('that does not link to the last ingested file breaks the chain and writes nothing', async () => {
    await db.sql.query(
      `insert into record_file (name, load_start, load_end, hash, prev_hash, consensus_start, consensus_end, count,
         digest_algorithm, version, file_hash, index)
       values ('2022-07-13T08_46_00.000000000Z.rcd.gz', 0, 0, $1, $2, 1657701960000000000, 1657701960000000000, 0, 0, 6, $1, 4)`,
      ['ab'.repeat(48), '00'.repeat(48)],
    );
    const error = await rejection();
    expect(error.file).toBe(`${FILE_1}.gz`);
    expect(error.reason).toBe(
      `previous hash 13d2594b9e9dbb73dad0cad67a96ad7a0e249af8693aa894003876c9ddd5534b3143e4d785e04fc0c461945a03e85178 does not match the last ingested file's hash ${'ab'.repeat(48)}`,
    );
    expect(await transactionTimestamps()).toEqual([]);
  });

  it('whose sidecar does not match its hash is refused', async () => {
    for (const node of NODES) {
      const file = path.join(dir, `record${node}`, 'sidecar', '2022-07-13T08_46_11.304284003Z_01.rcd.gz');
      const plain = gunzipSync(await readFile(file));
      plain[plain.length - 1] = (plain[plain.length - 1] ?? 0) ^ 0x01;
      await writeFile(file, gzipSync(plain));
    }
    const error = await rejection();
    expect(error.file).toBe(`${FILE_2}.gz`);
    expect(error.reason).toMatch(
      /^sidecar 2022-07-13T08_46_11.304284003Z_01.rcd.gz hash [0-9a-f]{96} does not match 1ed54ea01aab/,
    );
    expect(await transactionTimestamps()).toEqual(['1657701968041986003']);
  });

  it('whose sidecar is a truncated gzip is refused, naming the file (not a crash of the run)', async () => {
    for (const node of NODES) {
      const file = path.join(dir, `record${node}`, 'sidecar', '2022-07-13T08_46_11.304284003Z_01.rcd.gz');
      const bytes = await readFile(file);
      await writeFile(file, bytes.subarray(0, bytes.length - 20));
    }
    const error = await rejection();
    expect(error.file).toBe(`${FILE_2}.gz`);
    expect(error.reason).toMatch(/^sidecar 2022-07-13T08_46_11.304284003Z_01.rcd.gz: unreadable gzip: /);
    expect(await transactionTimestamps()).toEqual(['1657701968041986003']);
  });
});

const WRITTEN_TABLES = [
  'record_file',
  'transaction',
  'transaction_hash',
  'crypto_transfer',
  'entity',
  'entity_history',
  'contract',
  'contract_result',
  'contract_state',
  'contract_state_change',
  'sidecar_file',
  'file_data',
  'address_book',
  'address_book_entry',
];

/** A client whose connection dies at the `failAt`-th statement, as a killed process's would. */
function dyingClient(url: string, failAt: number): pg.Client {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  let statements = 0;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const kill = () => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    statements++;
    if (statements !== failAt) return query(...args);
    // The server sees the connection drop mid-transaction and rolls it back.
    kill();
    // A COPY stream fails on the dead connection by itself; a plain statement fails here.
    const submittable = typeof (args[0] as { submit?: unknown }).submit === 'function';
    return submittable ? query(...args) : Promise.reject(new Error('killed'));
  };
  return client;
}

describe('a process killed in the middle of a file', () => {
  it('leaves, after a restart, exactly the rows of a clean run', async () => {
    const clean = await createTestDatabase();
    try {
      await ingestFixture(clean.url, 'v6');
      const expected = await tableContents(clean.sql, WRITTEN_TABLES);
      // Kill at statements spread over the run (state loading, each file's writes, the commits).
      for (let failAt = 1; ; failAt += Math.ceil(failAt / 2)) {
        const victim = await createTestDatabase();
        try {
          const client = dyingClient(victim.url, failAt);
          await client.connect();
          const outcome = await ingestStore(victim.url, new DirStore(dir), BOOK, { client }).then(
            () => 'finished',
            () => 'killed',
          );
          await client.end().catch(() => {});
          await ingestStore(victim.url, new DirStore(dir), BOOK);
          expect(await tableContents(victim.sql, WRITTEN_TABLES), `killed at statement ${failAt}`).toEqual(expected);
          if (outcome === 'finished') break;
        } finally {
          await victim.drop();
        }
      }
    } finally {
      await clean.drop();
    }
  }, 300_000);
});
