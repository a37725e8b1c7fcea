import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { parseAddressBook } from '../decode/address-book.ts';
import { TableSchema } from '../sink/schema.ts';
import { BalanceStreamSource } from '../sources/balance-stream-source.ts';
import { DirStore } from '../sources/dir-store.ts';
import type { ObjectStore } from '../sources/object-store.ts';
import { S3Store, s3OptionsFromUrl } from '../sources/s3-store.ts';
import { addressBook, STREAMS } from '../testing/fixtures.ts';
import { startTestS3Server } from '../testing/s3-server.ts';
import { nodeKeysOf } from '../verify/node-keys.ts';
import { BalanceFiles, DEFAULT_BALANCE_FILE_SETTINGS } from './balance-files.ts';
import { verifyBalanceFile } from './verify-balance-file.ts';
import { writeBalanceFile } from './write-balance-file.ts';

const BALANCES = path.join(STREAMS, 'data/accountBalances');
/** The book whose keys signed the balance fixtures (MANIFEST.md). */
const KEYS = nodeKeysOf(parseAddressBook(addressBook('testnet')));
const TOTAL_SUPPLY = '5000000000000000000';
const EVERYTHING_WRITTEN = { recordEnd: 1n << 62n };

const db = useTestDatabase();
let client: pg.Client;
let logs: Record<string, unknown>[];

beforeEach(async () => {
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  logs = [];
  await client.query(
    'truncate account_balance, token_balance, account_balance_file, entity, token_account, record_file, crypto_transfer',
  );
});
afterEach(async () => {
  await client.end();
});

async function readBalances(store: ObjectStore, downloaderEnabled = false, network?: string) {
  const files = new BalanceFiles({
    source: new BalanceStreamSource(store, network ? { network } : {}),
    schema: await TableSchema.load(client),
    settings: { ...DEFAULT_BALANCE_FILE_SETTINGS, downloaderEnabled },
    log: (line) => logs.push(line),
    signatureWaitMs: 0,
  });
  await files.refresh(client);
  return files.writeDue(client, KEYS, { ...EVERYTHING_WRITTEN, untilIdle: true });
}

const query = async (text: string) => (await client.query(text)).rows;

describe('account balance files', () => {
  it('reads only the first file by default, and from it every account balance, summing to the supply', async () => {
    expect(await readBalances(new DirStore(path.join(BALANCES, 'v1')))).toBe('continue');
    expect(
      await query(
        'select consensus_timestamp::text, count::int, name, file_hash, synthetic, time_offset, bytes from account_balance_file',
      ),
    ).toEqual([
      {
        consensus_timestamp: '1567188900016002001',
        count: 25391,
        name: '2019-08-30T18_15_00.016002001Z_Balances.csv',
        file_hash: expect.stringMatching(/^c1a6ffb5df216a1e[0-9a-f]{80}$/),
        synthetic: false,
        time_offset: 0,
        bytes: null,
      },
    ]);
    expect(await query('select count(*)::int as n, sum(balance)::text as total from account_balance')).toEqual([
      { n: 25391, total: TOTAL_SUPPLY },
    ]);
    // The current balances start from the file: every account it lists, as of its time.
    expect(
      await query(
        `select count(*)::int as n, sum(balance)::text as total, min(balance_timestamp)::text as at,
                bool_and(type = 'ACCOUNT' and deleted is false and timestamp_range = '[0,)') as plain from entity`,
      ),
    ).toEqual([{ n: 25391, total: TOTAL_SUPPLY, at: '1567188900016002001', plain: true }]);
    expect(logs.filter((l) => l.msg === 'balance file ingested')).toHaveLength(1);
  });

  it('reads every file with the downloader on, initialising current balances from the first only', async () => {
    await readBalances(new DirStore(path.join(BALANCES, 'v1')), true);
    expect(await query('select consensus_timestamp::text from account_balance_file order by 1')).toEqual([
      { consensus_timestamp: '1567188900016002001' },
      { consensus_timestamp: '1567189800010147001' },
    ]);
    expect(await query('select count(*)::int as n from account_balance')).toEqual([{ n: 50782 }]);
    expect(
      await query('select min(balance_timestamp)::text as at, max(balance_timestamp)::text as latest from entity'),
    ).toEqual([{ at: '1567188900016002001', latest: '1567188900016002001' }]);
  });

  it('writes nothing again when the same files are read again', async () => {
    const store = new DirStore(path.join(BALANCES, 'v1'));
    await readBalances(store, true);
    const before = await query('select count(*)::int as n from account_balance');
    logs = [];
    await readBalances(store, true);
    expect(await query('select count(*)::int as n from account_balance')).toEqual(before);
    expect(logs.filter((l) => l.msg === 'balance file ingested')).toEqual([]);
  });

  it('passes over a file no node signed readably and takes the protobuf file of the same time', async () => {
    await readBalances(new DirStore(path.join(BALANCES, 'mixed')), true);
    expect(
      await query('select consensus_timestamp::text, count::int, name from account_balance_file order by 1'),
    ).toEqual([
      { consensus_timestamp: '1615414376075092000', count: 2485, name: '2021-03-10T22_12_56.075092Z_Balances.pb.gz' },
      { consensus_timestamp: '1615415276236886000', count: 2485, name: '2021-03-10T22_27_56.236886Z_Balances.pb.gz' },
    ]);
    expect(await query('select count(*)::int as n from token_balance group by consensus_timestamp')).toEqual([
      { n: 412 },
      { n: 412 },
    ]);
    // The empty .csv files have empty signature files: unreadable, so no consensus.
    expect(logs.filter((l) => l.msg === 'balance file rejected').map((l) => l.file)).toEqual([
      '2021-03-10T22_12_56.075092Z_Balances.csv',
      '2021-03-10T22_27_56.236886Z_Balances.csv',
    ]);
    // The first file's token balances become the token relationships' balances.
    expect(
      await query(
        `select count(*)::int as n from token_account ta
           join token_balance tb on tb.account_id = ta.account_id and tb.token_id = ta.token_id
          where tb.consensus_timestamp = 1615414376075092000 and tb.balance = ta.balance and ta.associated`,
      ),
    ).toEqual([{ n: 412 }]);
  });

  it('adds the transfers the record stream made after the file to the balances it gives', async () => {
    // As the importer's migration: the file's balance, plus what moved after its time up to the newest record file.
    await client.query(
      `insert into record_file (name, consensus_start, consensus_end, count, digest_algorithm, file_hash, hash,
                                index, load_start, load_end, prev_hash, version)
       values ('r.rcd', 1567188900016002000, 1567188900016002005, 1, 0, 'f', 'h', 0, 0, 0, 'p', 2)`,
    );
    await client.query(
      `insert into crypto_transfer (entity_id, consensus_timestamp, amount, payer_account_id) values
         (2, 1567188900016002000, -7, 2), (3, 1567188900016002000, 7, 2),
         (2, 1567188900016002005, -50, 2), (5000000, 1567188900016002005, 50, 2)`,
    );
    await readBalances(new DirStore(path.join(BALANCES, 'v1')));
    expect(await query('select id::text, balance::text from entity where id in (2, 3, 5000000) order by id')).toEqual([
      { id: '2', balance: String(2588856875379417355n - 50n) },
      { id: '3', balance: '235713285725910423' },
      { id: '5000000', balance: '50' },
    ]);
  });

  it('finds the files in the node-id layout and in a bucket', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'balance-node-id-'));
    try {
      for (const [i, folder] of readdirSync(path.join(BALANCES, 'mixed')).sort().entries()) {
        const target = path.join(dir, 'testnet/0', String(i), 'balance');
        mkdirSync(target, { recursive: true });
        cpSync(path.join(BALANCES, 'mixed', folder), target, { recursive: true });
      }
      await readBalances(new DirStore(dir), false, 'testnet');
      expect(await query('select name from account_balance_file')).toEqual([
        { name: '2021-03-10T22_12_56.075092Z_Balances.pb.gz' },
      ]);
      await client.query('truncate account_balance, token_balance, account_balance_file, entity, token_account');
      const server = await startTestS3Server('streams', 'accountBalances/', path.join(BALANCES, 'v1'));
      try {
        const bucket = new S3Store(
          s3OptionsFromUrl('s3://streams', { AWS_ENDPOINT_URL: server.endpoint, AWS_REGION: 'us-east-1' }),
        );
        await readBalances(bucket);
        expect(await query('select name from account_balance_file')).toEqual([
          { name: '2019-08-30T18_15_00.016002001Z_Balances.csv' },
        ]);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits for a file the record stream has not reached', async () => {
    const files = new BalanceFiles({
      source: new BalanceStreamSource(new DirStore(path.join(BALANCES, 'v1'))),
      schema: await TableSchema.load(client),
      log: (line) => logs.push(line),
      signatureWaitMs: 0,
    });
    await files.refresh(client);
    // The record stream has written up to just before the file, and the next record file starts at its time.
    const at = 1567188900016002001n;
    expect(files.dueBefore(at)).toBe(false);
    await files.writeDue(client, KEYS, { recordEnd: at - 1n, recordStart: at });
    expect(await query('select count(*)::int as n from account_balance_file')).toEqual([{ n: 0 }]);
    expect(files.dueBefore(at + 1n)).toBe(true);
    await files.writeDue(client, KEYS, { recordStart: at + 1n });
    expect(await query('select count(*)::int as n from account_balance_file')).toEqual([{ n: 1 }]);
  });

  it('waits for the signature files of a file still arriving, then passes it over', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'balance-late-'));
    try {
      for (const node of ['3', '4', '5', '6']) {
        const folder = path.join(dir, `balance0.0.${node}`);
        mkdirSync(folder, { recursive: true });
        const stem = '2021-03-10T22_12_56.075092Z_Balances.pb';
        cpSync(path.join(BALANCES, 'mixed', `balance0.0.${node}`, `${stem}.gz`), path.join(folder, `${stem}.gz`));
        // One node of four has uploaded its signature: a third of the weight (two nodes) is still possible.
        if (node === '3') {
          cpSync(path.join(BALANCES, 'mixed', 'balance0.0.3', `${stem}_sig.gz`), path.join(folder, `${stem}_sig.gz`));
        }
      }
      const files = new BalanceFiles({
        source: new BalanceStreamSource(new DirStore(dir)),
        schema: await TableSchema.load(client),
        log: (line) => logs.push(line),
        signatureWaitMs: 60_000,
      });
      await files.refresh(client);
      expect(await files.writeDue(client, KEYS, EVERYTHING_WRITTEN)).toBe('wait');
      expect(logs.map((l) => l.msg)).toEqual(['waiting for signature files']);
      expect(await files.writeDue(client, KEYS, { ...EVERYTHING_WRITTEN, untilIdle: true })).toBe('continue');
      expect(logs.at(-1)).toMatchObject({
        msg: 'balance file rejected',
        file: '2021-03-10T22_12_56.075092Z_Balances.pb',
      });
      expect(await query('select count(*)::int as n from account_balance_file')).toEqual([{ n: 0 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skips a verified file that is not after the newest balance file, in one transaction that writes nothing', async () => {
    const source = new BalanceStreamSource(new DirStore(path.join(BALANCES, 'v1')));
    const [first] = await source.nextFiles(undefined);
    if (!first) throw new Error('no fixture');
    const verified = await verifyBalanceFile(source.store, first, KEYS);
    const schema = await TableSchema.load(client);
    expect(await writeBalanceFile(client, schema, verified, (line) => logs.push(line))).toBe('written');
    expect(await writeBalanceFile(client, schema, verified, (line) => logs.push(line))).toBe('skipped');
    expect(await query('select count(*)::int as n from account_balance')).toEqual([{ n: 25391 }]);
    expect(logs.at(-1)).toMatchObject({
      msg: 'balance file skipped',
      file: '2019-08-30T18_15_00.016002001Z_Balances.csv',
    });
  });
});
