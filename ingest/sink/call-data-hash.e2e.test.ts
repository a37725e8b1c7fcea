import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import { signEthereumCall } from '../../simulator/evm/ethereum-tx.ts';
import type { TestDatabase } from '../../test/harness/test-database.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import { sha384 } from '../decode/hash.ts';
import type { RawItem } from '../decode/record-file.ts';
import { decodeRlp, encodeRlp, type RlpItem } from '../decode/rlp.ts';
import { deriveRecordFile } from '../derive/record-file.ts';
import { TableSchema } from './schema.ts';
import { writeFileRows } from './writer.ts';

const SECOND = 1_000_000_000n;
const PAYER = 1020;
const CONTRACT = 6000;
const CALL_FILE = 5000;
const TEXT_FILE = 5001;
const MISSING_FILE = 7000;
const SUCCESS = 22;
const KEY = new Uint8Array(32).fill(0x33);
const CALL_DATA = new Uint8Array(200).map((_, i) => (i * 7) % 256);
const APPENDED = Uint8Array.of(0xff);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const ascii = (text: string) => new TextEncoder().encode(text);

/** A signed type 2 call and the bytes a sender who put its data into a file sends: the same with empty data. */
function callWithDataInFile(nonce: bigint, data: Uint8Array): { hash: Uint8Array; stripped: Uint8Array } {
  const to = new Uint8Array(20);
  to[19] = CONTRACT & 0xff;
  to[18] = CONTRACT >> 8;
  const signed = signEthereumCall({ type: 2, nonce, gasPrice: 10n ** 12n, gasLimit: 500_000n, to, data }, KEY);
  const fields = decodeRlp(signed.raw.subarray(1)) as readonly RlpItem[];
  const stripped = Uint8Array.of(2, ...encodeRlp(fields.map((field, i) => (i === 7 ? new Uint8Array() : field))));
  return { hash: signed.hash, stripped };
}

const first = callWithDataInFile(1n, CALL_DATA);
const second = callWithDataInFile(2n, Uint8Array.from([...CALL_DATA, ...APPENDED]));

function item(seconds: number, body: Record<string, unknown>, record: Record<string, unknown> = {}): RawItem {
  const types = hapi();
  const transactionID = { accountID: { accountNum: PAYER }, transactionValidStart: { seconds: seconds - 5 } };
  const bodyBytes = types.TransactionBody.encode(types.TransactionBody.fromObject({ transactionID, ...body })).finish();
  return {
    transaction: types.Transaction.encode(types.Transaction.fromObject({ bodyBytes })).finish(),
    record: types.TransactionRecord.encode(
      types.TransactionRecord.fromObject({
        consensusTimestamp: { seconds },
        transactionID,
        transactionHash: sha384(bodyBytes),
        receipt: { status: SUCCESS },
        ...record,
      }),
    ).finish(),
  };
}

const fileCreate = (seconds: number, file: number, contents: Uint8Array) =>
  item(seconds, { fileCreate: { contents } }, { receipt: { status: SUCCESS, fileID: { fileNum: file } } });
const fileAppend = (seconds: number, file: number, contents: Uint8Array) =>
  item(seconds, { fileAppend: { fileID: { fileNum: file }, contents } });
const fileUpdate = (seconds: number, file: number, contents: Uint8Array) =>
  item(seconds, { fileUpdate: { fileID: { fileNum: file }, contents } });

/** An Ethereum transaction whose record (as before HAPI 0.26) carries no Ethereum hash. */
function ethereum(seconds: number, stripped: Uint8Array, file: number): RawItem {
  const result = { contractID: { contractNum: CONTRACT }, gasUsed: 30_000, sender_id: { accountNum: PAYER } };
  return item(
    seconds,
    { ethereumTransaction: { ethereum_data: stripped, call_data: { fileNum: file }, max_gas_allowance: 10 ** 8 } },
    {
      contractCallResult: {
        ...result,
        contractCallResult: Uint8Array.of(1),
        logInfo: [{ contractID: { contractNum: CONTRACT }, data: Uint8Array.of(2) }],
      },
    },
  );
}

async function writeRecordFile(db: TestDatabase, schema: TableSchema, index: bigint, items: RawItem[]) {
  const { rows } = deriveRecordFile(
    {
      name: `2025-01-01T00_0${index}_00.000000000Z.rcd`,
      version: 6,
      hapiVersion: { major: 0, minor: 25, patch: 0 },
      previousHash: new Uint8Array(48),
      hash: new Uint8Array(48).fill(Number(index)),
      fileHash: new Uint8Array(48),
      metadataHash: undefined,
      blockNumber: index,
      items,
      sidecars: [],
      size: 0,
    },
    { index, loadStart: 0n, sidecars: [], columnKinds: schema.columnKinds() },
  );
  await db.sql.query('begin');
  await writeFileRows(db.sql, schema, rows);
  await db.sql.query('commit');
}

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    const schema = await TableSchema.load(db.sql);
    const half = CALL_DATA.length / 2;
    await writeRecordFile(db, schema, 1n, [
      fileCreate(100, CALL_FILE, ascii(`0x${hex(CALL_DATA.subarray(0, half))}`)),
      fileAppend(101, CALL_FILE, ascii(`${hex(CALL_DATA.subarray(half))}\n`)),
      fileCreate(102, TEXT_FILE, ascii('not hex')),
    ]);
    await writeRecordFile(db, schema, 2n, [
      fileUpdate(199, CALL_FILE, new Uint8Array()),
      ethereum(200, first.stripped, CALL_FILE),
      fileAppend(201, CALL_FILE, ascii(hex(APPENDED))),
      ethereum(202, second.stripped, CALL_FILE),
      ethereum(203, second.stripped, TEXT_FILE),
      ethereum(204, second.stripped, MISSING_FILE),
    ]);
  },
});

const query = async (text: string) => (await db.sql.query(text)).rows as Record<string, unknown>[];

describe('an Ethereum transaction whose call data is in a file, its record without an Ethereum hash', () => {
  it("hashes the transaction with the file's contents as of its timestamp restored as its data", async () => {
    expect(
      await query(
        `select consensus_timestamp / ${SECOND} as second, encode(hash, 'hex') as hash
           from ethereum_transaction order by consensus_timestamp`,
      ),
    ).toEqual([
      { second: '200', hash: hex(first.hash) },
      { second: '202', hash: hex(second.hash) },
      { second: '203', hash: '' },
      { second: '204', hash: '' },
    ]);
  });

  it('carries the hash into the contract result, its log, its lookup row and a transaction_hash row', async () => {
    const at = (table: string, column: string) =>
      query(`select encode(${column}, 'hex') as hash from ${table} where consensus_timestamp = ${200n * SECOND}`);
    for (const [table, column] of [
      ['contract_result', 'transaction_hash'],
      ['contract_log', 'transaction_hash'],
      ['contract_transaction_hash', 'hash'],
    ] as const) {
      expect([table, await at(table, column)]).toEqual([table, [{ hash: hex(first.hash) }]]);
    }
    expect(
      await query(
        `select consensus_timestamp / ${SECOND} as second, payer_account_id::int as payer from transaction_hash
          where length(hash) = 32 and hash_suffix is null order by consensus_timestamp`,
      ),
    ).toEqual([
      { second: '200', payer: PAYER },
      { second: '202', payer: PAYER },
    ]);
  });

  it('is found by that hash on /contracts/results/{hash}', async () => {
    for (const [tx, timestamp] of [
      [first, '200.000000000'],
      [second, '202.000000000'],
    ] as const) {
      const response = await worker.get(`/api/v1/contracts/results/0x${hex(tx.hash)}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ hash: `0x${hex(tx.hash)}`, timestamp });
    }
  });
});
