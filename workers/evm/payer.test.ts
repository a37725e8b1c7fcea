import { describe, expect, it } from 'vitest';
import { fromHex } from '../../simulator/evm/abi.ts';
import {
  callOf,
  GENESIS,
  insertBlocks,
  ledgerBlock,
  probeCode,
  SECOND,
  TESTNET_SETTINGS,
  uintOf,
  useEvmLedger,
} from '../../test/harness/evm-session.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { longZeroAddress } from './addresses.ts';
import type { CallTransaction, EvmSettings } from './types.ts';

const SENDER = 1100n;
const RECEIVER = 1101n;
const CONTRACT = 1102n;
const ALIASED = 1103n;
const ALIAS = fromHex('abababababababababababababababababababab');
const latest = ledgerBlock(7n, GENESIS + 70n * SECOND);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 10n ** 18n });
  await insertEntity(sql, SENDER, GENESIS, { balance: 100n });
  await insertEntity(sql, RECEIVER, GENESIS, { balance: 0n });
  await insertEntity(sql, ALIASED, GENESIS, { balance: 0n, alias: Buffer.from(ALIAS) });
  // CALLER of the call: who the EVM takes for msg.sender.
  await insertContract(sql, { id: CONTRACT, created_timestamp: GENESIS }, { runtime_bytecode: probeCode(0x33, false) });
});

const run = (change: Partial<CallTransaction>, settings: EvmSettings = TESTNET_SETTINGS) =>
  ledger.session(latest, { settings }).run(callOf(longZeroAddress(RECEIVER), new Uint8Array(), change));

describe('the sender and payer of a call', () => {
  it('answers an unknown long-zero `from` sending value with PAYER_ACCOUNT_NOT_FOUND', async () => {
    expect(await run({ from: longZeroAddress(999_999n), value: 10n })).toMatchObject({
      ok: false,
      status: 'PAYER_ACCOUNT_NOT_FOUND',
    });
  });

  it('answers an unknown EVM address as `from` with PAYER_ACCOUNT_NOT_FOUND', async () => {
    expect(await run({ from: fromHex('1234567890123456789012345678901234567890') })).toMatchObject({
      ok: false,
      status: 'PAYER_ACCOUNT_NOT_FOUND',
    });
  });

  it('accepts a contract as `from` (with value) and lets the treasury pay and send instead', async () => {
    const outcome = await run({ from: longZeroAddress(CONTRACT), value: 10n });
    expect(outcome).toMatchObject({ ok: true });
    expect(outcome.output).toHaveLength(0);
    const caller = await ledger
      .session(latest)
      .run(callOf(longZeroAddress(CONTRACT), new Uint8Array(), { from: longZeroAddress(CONTRACT) }));
    expect(uintOf(caller.output)).toBe(2n);
  });

  it('finds `from` by a 20-byte alias', async () => {
    const caller = await ledger
      .session(latest)
      .run(callOf(longZeroAddress(CONTRACT), new Uint8Array(), { from: ALIAS }));
    expect(caller.ok).toBe(true);
    expect(uintOf(caller.output)).toBe(uintOf(ALIAS));
  });
});

describe('validatePayerBalance', () => {
  const validating = { ...TESTNET_SETTINGS, validatePayerBalance: true };

  it('answers a value above the sender balance with INSUFFICIENT_PAYER_BALANCE', async () => {
    expect(await run({ from: longZeroAddress(SENDER), value: 1000n }, validating)).toMatchObject({
      ok: false,
      status: 'INSUFFICIENT_PAYER_BALANCE',
    });
  });

  it('answers a gas price the sender cannot pay with INSUFFICIENT_PAYER_BALANCE', async () => {
    expect(await run({ from: longZeroAddress(SENDER), gasPrice: 1_000_000n }, validating)).toMatchObject({
      ok: false,
      status: 'INSUFFICIENT_PAYER_BALANCE',
    });
  });

  it('accepts the same calls without `from`, or without value and gas price', async () => {
    expect(await run({ value: 1000n }, validating)).toMatchObject({ ok: true });
    expect(await run({ from: longZeroAddress(SENDER) }, validating)).toMatchObject({ ok: true });
  });

  it('lets a value within the real balance through, and is off by default', async () => {
    expect(await run({ from: longZeroAddress(SENDER), value: 60n }, validating)).toMatchObject({ ok: true });
    expect(await run({ from: longZeroAddress(SENDER), value: 1000n })).toMatchObject({ ok: true });
  });
});
