import { describe, expect, it } from 'vitest';
import { artifact, callData, fromHex } from '../../simulator/evm/abi.ts';
import {
  callOf,
  GENESIS,
  insertBlocks,
  ledgerBlock,
  probeCode,
  SECOND,
  uintOf,
  useEvmLedger,
} from '../../test/harness/evm-session.ts';
import { insertCryptoTransfer, insertRow } from '../../test/harness/factories.ts';
import { insertAccountBalance } from '../../test/harness/factories-accounts.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { insertContractSlot, insertSlotChange, word32 } from '../../test/harness/factories-evm.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { longZeroAddress } from './addresses.ts';
import type { BlockContext } from './types.ts';

/** Calls at historical blocks read the ledger as it was at the block's end; `latest` reads it as it is now. */

const at = (seconds: bigint) => GENESIS + seconds * SECOND;
const TREASURY = 2n;
const COUNTER = 1001n;
const LATE_COUNTER = 1002n;
const DELETED_COUNTER = 1003n;
const ACCOUNT = 1600n;
const BALANCE_PROBE = 1700n;
const LATE_ALIASED = 1800n;
const LATE_EVM_ADDRESS = fromHex('1a7e1a7e1a7e1a7e1a7e1a7e1a7e1a7e1a7e1a7e');
const counter = artifact('Counter');
const count = callData(counter, 'count()', []);

const B10 = ledgerBlock(10n, at(1_000n), { historical: true });
const B20 = ledgerBlock(20n, at(2_000n), { historical: true });
const LATEST = ledgerBlock(30n, at(3_000n));

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [B10, B20, LATEST]);
  await insertEntity(sql, TREASURY, GENESIS, { balance: 10n ** 18n });
  const runtime = { runtime_bytecode: fromHex(counter.runtime) };
  await insertContract(sql, { id: COUNTER, created_timestamp: at(500n) }, runtime);
  // count: 3 from 900 s, 7 from 1,500 s; read (not written) at 1,700 s.
  await insertSlotChange(sql, {
    contract_id: COUNTER,
    slot: 0n,
    value_read: 0n,
    value_written: 3n,
    consensus_timestamp: at(900n),
  });
  await insertSlotChange(sql, {
    contract_id: COUNTER,
    slot: 0n,
    value_read: 3n,
    value_written: 7n,
    consensus_timestamp: at(1_500n),
  });
  await insertSlotChange(sql, {
    contract_id: COUNTER,
    slot: 0n,
    value_read: 7n,
    value_written: null,
    consensus_timestamp: at(1_700n),
  });
  await insertContractSlot(sql, { contract_id: COUNTER, slot: 0n, value: 7n, modified_timestamp: at(1_500n) });
  await insertContract(sql, { id: LATE_COUNTER, created_timestamp: at(1_500n) }, runtime);
  await insertContract(
    sql,
    { id: LATE_ALIASED, created_timestamp: at(1_500n), evm_address: Buffer.from(LATE_EVM_ADDRESS) },
    runtime,
  );
  // Deleted at 1,800 s: the current row says so, the history row before it does not.
  await insertContract(
    sql,
    { id: DELETED_COUNTER, created_timestamp: at(500n), deleted: true, timestamp_range: `[${at(1_800n)},)` },
    runtime,
  );
  await insertRow(sql, 'entity_history', {
    id: DELETED_COUNTER,
    num: DELETED_COUNTER,
    realm: 0,
    shard: 0,
    type: 'CONTRACT',
    memo: '',
    created_timestamp: at(500n),
    deleted: false,
    timestamp_range: `[${at(500n)},${at(1_800n)})`,
  });
  // The account's balance: 1,000 in the snapshot at 950 s, then +200, +300 (block 10), +400 (block 20); an erratum
  // deleted a transfer of 5,000 before block 10. `entity.balance`, which latest reads, is set apart from them.
  await insertEntity(sql, ACCOUNT, at(100n), { balance: 2_468n });
  await insertAccountBalance(sql, { account_id: TREASURY, balance: 10n ** 18n, consensus_timestamp: at(950n) });
  await insertAccountBalance(sql, { account_id: ACCOUNT, balance: 1_000n, consensus_timestamp: at(950n) });
  for (const [seconds, amount] of [
    [980n, 200n],
    [1_001n, 300n],
    [1_500n, 400n],
  ] as const) {
    await insertCryptoTransfer(sql, {
      consensus_timestamp: at(seconds),
      entity_id: ACCOUNT,
      amount,
      payer_account_id: ACCOUNT,
    });
  }
  await insertRow(sql, 'crypto_transfer', {
    consensus_timestamp: at(990n),
    entity_id: ACCOUNT,
    amount: 5_000,
    payer_account_id: ACCOUNT,
    is_approval: false,
    errata: 'DELETE',
  });
  await insertContract(
    sql,
    { id: BALANCE_PROBE, created_timestamp: at(100n) },
    { runtime_bytecode: probeCode(0x31, true) },
  );
});

const run = (block: BlockContext, ...args: Parameters<typeof callOf>) => ledger.session(block).run(callOf(...args));

describe('storage', () => {
  it('reads a slot at a block from its newest change at or before the block (value written)', async () => {
    expect(uintOf((await run(B10, longZeroAddress(COUNTER), count)).output)).toBe(3n);
  });

  it('takes the value read of a change that wrote nothing', async () => {
    expect(uintOf((await run(B20, longZeroAddress(COUNTER), count)).output)).toBe(7n);
  });

  it('reads the current value at latest', async () => {
    expect(uintOf((await run(LATEST, longZeroAddress(COUNTER), count)).output)).toBe(7n);
  });
});

describe('entities', () => {
  it('answers a call at a block before the contract existed with INVALID_CONTRACT_ID', async () => {
    expect(await run(B10, longZeroAddress(LATE_COUNTER), count)).toMatchObject({
      ok: false,
      status: 'INVALID_CONTRACT_ID',
    });
    expect(await run(B20, longZeroAddress(LATE_COUNTER), count)).toMatchObject({ ok: true });
  });

  it('finds a contract by its EVM address only at blocks after it was created', async () => {
    expect(await run(B10, LATE_EVM_ADDRESS, count)).toMatchObject({
      ok: false,
      status: 'INVALID_CONTRACT_ID',
    });
    expect(await run(B20, LATE_EVM_ADDRESS, count)).toMatchObject({ ok: true });
  });

  it('runs a contract at a block before its deletion, and not after it', async () => {
    expect(await run(B10, longZeroAddress(DELETED_COUNTER), count)).toMatchObject({ ok: true });
    expect(await run(LATEST, longZeroAddress(DELETED_COUNTER), count)).toMatchObject({
      ok: false,
      status: 'INVALID_CONTRACT_ID',
    });
  });
});

describe('hbar balances', () => {
  const balanceAt = async (block: BlockContext) =>
    uintOf((await run(block, longZeroAddress(BALANCE_PROBE), word32(uintOf(longZeroAddress(ACCOUNT))))).output);

  it('is the snapshot plus the transfers after it up to the block, without deleted errata', async () => {
    expect(await balanceAt(B10)).toBe(1_500n);
    expect(await balanceAt(B20)).toBe(1_900n);
  });

  it('is the entity balance at latest', async () => {
    expect(await balanceAt(LATEST)).toBe(2_468n);
  });
});
