import { inject } from 'vitest';
import { createDatabase, type Database } from '../../db/client.ts';
import { proxyTarget, startSqlProxy } from '../../db/local/sql-proxy.ts';
import type { BlockContext, CallTransaction, EvmSettings } from '../../workers/evm/types.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** A fresh database and the Worker's own driver on it (through the local SQL-over-HTTP proxy). */
export interface EvmTestDatabase {
  readonly testDb: TestDatabase;
  readonly db: Database;
  close(): Promise<void>;
}

export async function createEvmTestDatabase(): Promise<EvmTestDatabase> {
  const testDb = await createTestDatabase();
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(testDb.url, inject('pgSocketDir'))] });
  return {
    testDb,
    db: createDatabase({ url: testDb.url, localProxy: proxy.address }),
    async close() {
      await proxy.close();
      await testDb.drop();
    },
  };
}

export const SECOND = 1_000_000_000n;

/** The web3 defaults (testnet). */
export const TESTNET_SETTINGS: EvmSettings = {
  chainId: 296n,
  network: 'TESTNET',
  maxGasLimit: 15_000_000n,
  validatePayerBalance: false,
  shard: 0n,
  realm: 0n,
};

/** A block context of a record file row (the route resolves `block` into one). */
export function blockContext(
  row: { index: bigint; consensus_start: bigint; consensus_end: bigint; hash: string },
  historical: boolean,
): BlockContext {
  return {
    number: row.index,
    consensusStart: row.consensus_start,
    consensusEnd: row.consensus_end,
    hash: row.hash,
    historical,
  };
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
