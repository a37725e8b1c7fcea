import { describe, expect, it } from 'vitest';
import { countingClient, useEvmLedger } from '../../test/harness/evm-session.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { BytecodeCache } from './bytecode-cache.ts';

const ledger = useEvmLedger(async (sql) => {
  for (const id of [1n, 2n, 3n]) {
    await insertContract(
      sql,
      { id: 1000n + id, created_timestamp: 1n },
      { runtime_bytecode: Buffer.alloc(400, Number(id)) },
    );
  }
});

/** The test database's client, counting the statements it runs. */
const counted = () => countingClient(ledger.db);

describe('BytecodeCache', () => {
  it('reads a contract once and answers later sessions from memory', async () => {
    const db = counted();
    const cache = new BytecodeCache(1_000);
    await cache.get(db, 1001n);
    const { code, hash } = await cache.get(db, 1001n);
    expect(db.statements).toBe(1);
    expect(code).toEqual(new Uint8Array(400).fill(1));
    expect(hash).toHaveLength(32);
  });

  it('drops the least recently used contracts beyond its byte budget', async () => {
    const db = counted();
    const cache = new BytecodeCache(1_000);
    await cache.get(db, 1001n);
    await cache.get(db, 1002n);
    await cache.get(db, 1001n);
    await cache.get(db, 1003n);
    expect(cache.size).toBe(2);
    await cache.get(db, 1001n);
    expect(db.statements).toBe(3);
    await cache.get(db, 1002n);
    expect(db.statements).toBe(4);
  });

  it('gives empty code for a contract without a row, and asks again next time', async () => {
    const db = counted();
    const cache = new BytecodeCache();
    expect((await cache.get(db, 999n)).code).toHaveLength(0);
    await cache.get(db, 999n);
    expect(db.statements).toBe(2);
    expect(cache.size).toBe(0);
  });
});
