import type pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, type Database } from '../../db/client.ts';
import { proxyTarget, startSqlProxy } from '../../db/local/sql-proxy.ts';
import { buildConfig } from '../../workers/config/config.ts';
import { web3Settings } from '../../workers/config/web3.ts';
import { openSession } from '../../workers/evm/session.ts';
import type {
  BlockContext,
  CallTransaction,
  EvmSession,
  EvmSessionOptions,
  EvmSettings,
} from '../../workers/evm/types.ts';
import { insertRecordFile } from './factories-blocks.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** The EVM settings the Worker runs with by default (testnet; workers/config/web3.test.ts holds their values). */
export const TESTNET_SETTINGS: EvmSettings = web3Settings(buildConfig()).evm;

export const SECOND = 1_000_000_000n;
/** When the entities of an EVM test ledger are created. */
export const GENESIS = 1_700_000_000n * SECOND;

/** The Worker's driver on a test database, through a local SQL-over-HTTP proxy of its own. */
export interface WorkerDriver {
  readonly db: Database;
  /** Closes the proxy. */
  close(): Promise<void>;
}

export async function openWorkerDriver(url: string): Promise<WorkerDriver> {
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(url, inject('pgSocketDir'))] });
  return { db: createDatabase({ url, localProxy: proxy.address }), close: () => proxy.close() };
}

/** A test file's own database, seen by the EVM through the Worker's driver (the local SQL-over-HTTP proxy). */
export interface EvmLedger {
  /** The Worker's driver on the database. */
  readonly db: Database;
  /** A plain client on the database, to seed it. */
  readonly sql: pg.Client;
  /** A session at `block`, with the testnet settings and the driver's caches unless `options` says otherwise. */
  session(block: BlockContext, options?: Partial<Omit<EvmSessionOptions, 'block'>>): EvmSession;
}

/**
 * Registers the file's `beforeAll` (a fresh database, then `seed`) and `afterAll` (the proxy closed, the database
 * dropped). The ledger's members can be read only while the file's tests run.
 */
export function useEvmLedger(seed: (sql: pg.Client) => Promise<void>): EvmLedger {
  let testDb: TestDatabase | undefined;
  let driver: WorkerDriver | undefined;
  const opened = () => {
    if (!testDb || !driver) throw new Error('the EVM test ledger is open only while the tests run');
    return { testDb, db: driver.db };
  };
  beforeAll(async () => {
    testDb = await createTestDatabase();
    driver = await openWorkerDriver(testDb.url);
    await seed(testDb.sql);
  });
  afterAll(async () => {
    await driver?.close();
    await testDb?.drop();
  });
  return {
    get db() {
      return opened().db;
    },
    get sql() {
      return opened().testDb.sql;
    },
    session: (block, options = {}) => openSession({ db: opened().db, block, settings: TESTNET_SETTINGS, ...options }),
  };
}

/** `db` behind a wrapper of its own, as a request sees it, counting the statements it runs. */
export function countingClient(db: Database): Database & { statements: number } {
  const counted = {
    statements: 0,
    rows: ((query) => {
      counted.statements++;
      return db.rows(query);
    }) as Database['rows'],
  };
  return counted;
}

/**
 * Block `index` as a call sees it: a record file from `start` that lasts two seconds, with `hash` or one made of
 * the index's low byte; historical when `historical` says so, the latest block otherwise.
 */
export function ledgerBlock(
  index: bigint,
  start: bigint,
  options: { historical?: boolean; hash?: string } = {},
): BlockContext {
  return {
    number: index,
    consensusStart: start,
    consensusEnd: start + 2n * SECOND,
    hash: options.hash ?? (index % 256n).toString(16).padStart(2, '0').repeat(48),
    historical: options.historical ?? false,
  };
}

/** The record files of `blocks`, as the route finds them when it resolves `block`. */
export async function insertBlocks(sql: pg.Client, blocks: readonly BlockContext[]): Promise<void> {
  for (const block of blocks) {
    await insertRecordFile(sql, {
      index: block.number,
      consensus_start: block.consensusStart,
      consensus_end: block.consensusEnd,
      hash: block.hash,
    });
  }
}

/** A call with the route's defaults: no `from`, no value, gas 15,000,000, gas price 0. */
export function callOf(
  to: Uint8Array | undefined,
  data: Uint8Array = new Uint8Array(),
  change: Partial<CallTransaction> = {},
): CallTransaction {
  return { from: undefined, to, data, value: 0n, gas: 15_000_000n, gasPrice: 0n, ...change };
}

/**
 * Runtime code that applies one opcode and returns the 32-byte result: with `operand`, to the first word of the
 * call data (CALLDATALOAD 0 first); without, to nothing (ADDRESS, TIMESTAMP, …).
 */
export function probeCode(opcode: number, operand: boolean): Buffer {
  const op = opcode.toString(16).padStart(2, '0');
  return Buffer.from(`${operand ? '600035' : ''}${op}60005260206000f3`, 'hex');
}

export const uintOf = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
export const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
