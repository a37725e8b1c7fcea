import { describe, expect, it } from 'vitest';
import { GENESIS, ledgerBlock, SECOND, useEvmLedger } from '../../test/harness/evm-session.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { encodeEntityId } from '../params/entity-id.ts';
import { EntityNumbers, FIRST_USER_ENTITY, firstNewEntityNumber } from './next-entity-id.ts';

const SETTINGS = { shard: 0n, realm: 0n };
const LATER = GENESIS + 10n * SECOND;

const ledger = useEvmLedger(async (sql) => {
  await insertEntity(sql, 2n, GENESIS, { created_timestamp: null });
  await insertEntity(sql, 1500n, GENESIS);
  await insertEntity(sql, 1501n, GENESIS, { type: 'TOKEN', deleted: true });
  await insertEntity(sql, 1502n, LATER, { type: 'CONTRACT' });
  // Another realm's entity: its encoded id is far above every id of realm 0.
  await insertEntity(sql, encodeEntityId({ shard: 0n, realm: 1n, num: 7n }), GENESIS);
});

describe('firstNewEntityNumber', () => {
  it('is the highest entity number at latest + 1, deleted entities and tokens included', async () => {
    const block = ledgerBlock(9n, LATER + SECOND);
    expect(await firstNewEntityNumber(ledger.db, block, SETTINGS)).toBe(1503n);
  });

  it('counts only the entities created by the end of a historical block', async () => {
    const before = ledgerBlock(5n, GENESIS, { historical: true });
    expect(await firstNewEntityNumber(ledger.db, before, SETTINGS)).toBe(1502n);
  });

  it('starts at the first user entity on a ledger of system entities only', async () => {
    const genesis = ledgerBlock(0n, GENESIS - 100n * SECOND, { historical: true });
    expect(await firstNewEntityNumber(ledger.db, genesis, SETTINGS)).toBe(FIRST_USER_ENTITY);
  });

  it('reads only the settings shard and realm', async () => {
    const block = ledgerBlock(9n, LATER + SECOND);
    expect(await firstNewEntityNumber(ledger.db, block, { shard: 0n, realm: 1n })).toBe(FIRST_USER_ENTITY);
  });
});

describe('EntityNumbers', () => {
  it('allocates one number after another; peek allocates nothing', () => {
    const numbers = new EntityNumbers(1503n);
    expect(numbers.peek()).toBe(1503n);
    expect(numbers.use()).toBe(1503n);
    expect(numbers.use()).toBe(1504n);
    expect(numbers.peek()).toBe(1505n);
  });

  it('gives back the numbers of a reverted frame and keeps those of a committed one', () => {
    const numbers = new EntityNumbers(1503n);
    numbers.checkpoint();
    numbers.use();
    numbers.checkpoint();
    numbers.use();
    numbers.revert();
    expect(numbers.peek()).toBe(1504n);
    numbers.checkpoint();
    numbers.use();
    numbers.commit();
    numbers.commit();
    expect(numbers.peek()).toBe(1505n);
  });
});
