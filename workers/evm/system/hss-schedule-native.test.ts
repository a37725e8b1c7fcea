import { describe, expect, it } from 'vitest';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { GENESIS, insertBlocks, ledgerBlock, SECOND, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { returned, revertText, systemEvmAt } from '../../../test/harness/factories-evm-system.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, bool, bytes, encode, int, string, tuple } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import { calldata } from './testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from './testing/two-calls.ts';
import { HEDERA_TOKEN_V3 } from './token-structs.ts';

const PAYER = 1001n;
const CONTRACT = 1002n;
/** The number the run's first created entity takes: the one after the ledger's highest. */
const NEXT = 1003n;

const latest = ledgerBlock(20n, GENESIS + 200n * SECOND);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, PAYER, GENESIS);
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT' });
});

const HSS = longZeroAddress(0x16bn);
const code = (name: string) => BigInt(responseCodeByName(name) ?? -1);
const scheduleArg = (schedule: Uint8Array) => encode(address(schedule));

async function contractEvm() {
  const system = await systemEvmAt(ledger.db, latest);
  await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
  return system;
}

describe('scheduleNative on 0x16b', () => {
  const HTS = longZeroAddress(0x167n);
  const token = tuple(
    string('Later'),
    string('LTR'),
    address(longZeroAddress(PAYER)),
    string(''),
    bool(false),
    int(0n),
    bool(false),
    array([]),
    tuple(int(0n), address(longZeroAddress(PAYER)), int(7_776_000n)),
  );
  const createFungible = calldata(
    `createFungibleToken(${HEDERA_TOKEN_V3},int64,int32)`,
    encode(token, int(10n), int(0n)),
  );
  const scheduleNative = (target: Uint8Array, inner: Uint8Array, payer: Uint8Array) =>
    calldata('scheduleNative(address,bytes,address)', encode(address(target), bytes(inner), address(payer)));

  it('schedules a token creation paid by the payer, for the ScheduleCreate gas, with no admin key', async () => {
    const system = await contractEvm();
    const caller = longZeroAddress(CONTRACT);
    const result = await system.call(HSS, scheduleNative(HTS, createFungible, longZeroAddress(PAYER)), { caller });
    expect(returned(result).int(0)).toBe(code('SUCCESS'));
    expect(returned(result).address(1)).toEqual(longZeroAddress(NEXT));
    expect(result.executionGasUsed).toBe(canonicalGas('SCHEDULE_CREATE'));
    const deleted = await system.call(
      caller,
      twoCalls(
        { to: HSS, data: scheduleNative(HTS, createFungible, longZeroAddress(PAYER)) },
        { to: HSS, data: calldata('deleteSchedule(address)', scheduleArg(longZeroAddress(NEXT))) },
      ),
    );
    expect(returned(deleted).int(0)).toBe(code('SCHEDULE_IS_IMMUTABLE'));
  });

  it('reverts with the status for a payer that is no account and for the same schedule twice', async () => {
    const system = await contractEvm();
    const caller = longZeroAddress(CONTRACT);
    const missing = await system.call(HSS, scheduleNative(HTS, createFungible, longZeroAddress(4242n)), { caller });
    expect(revertText(missing)).toBe('ACCOUNT_ID_DOES_NOT_EXIST');
    expect(missing.executionGasUsed).toBe(canonicalGas('SCHEDULE_CREATE'));
    const once = { to: HSS, data: scheduleNative(HTS, createFungible, longZeroAddress(PAYER)) };
    const twice = await system.call(caller, twoCalls(once, once));
    expect(revertText(twice)).toBe('IDENTICAL_SCHEDULE_ALREADY_CREATED');
  });

  it('halts for a target other than HTS, and an inner call that is no create or update', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const caller = longZeroAddress(CONTRACT);
    const transfer = calldata('transferToken(address,address,address,int64)');
    for (const data of [
      scheduleNative(longZeroAddress(0x16an), createFungible, longZeroAddress(PAYER)),
      scheduleNative(HTS, transfer, longZeroAddress(PAYER)),
    ]) {
      const result = await call(HSS, data, { caller, gas: 80_000n });
      expect(result.exceptionError).toBeDefined();
      expect(result.executionGasUsed).toBe(80_000n);
    }
  });
});
