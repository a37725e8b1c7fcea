import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { GENESIS, insertBlocks, ledgerBlock, SECOND, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { insertRow } from '../../../test/harness/factories.ts';
import { returned, systemEvmAt } from '../../../test/harness/factories-evm-system.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, bytes, encode, int } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { canonicalGas } from './hts-gas.ts';
import { VIEW_GAS } from './results.ts';
import { contractCallBody } from './testing/schedule-bodies.ts';
import { calldata } from './testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from './testing/two-calls.ts';
import { contractKeyBytes } from './token-structs.ts';

const PAYER = 1001n;
const CONTRACT = 1002n;
const TARGET = 1003n;
/** The number the run's first created entity takes: the one after the ledger's highest. */
const NEXT = 1004n;
/** A schedule of the ledger: CONTRACT's call of TARGET's ping() with 100,000 gas, waiting for STORED_EXPIRY. */
const STORED = 990n;

const latest = ledgerBlock(20n, GENESIS + 200n * SECOND);
const NOW = latest.consensusStart / SECOND;
const STORED_EXPIRY = NOW + 3600n;
/** TARGET's code: stores 1 in slot 0. */
const STORE_ONE = Uint8Array.from([0x60, 0x01, 0x60, 0x00, 0x55, 0x00]);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, PAYER, GENESIS);
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT' });
  await insertEntity(sql, TARGET, GENESIS, { type: 'CONTRACT' });
  await insertEntity(sql, STORED, GENESIS, {
    type: 'SCHEDULE',
    key: Buffer.from(contractKeyBytes(longZeroAddress(CONTRACT), false, { shard: 0n, realm: 0n })),
  });
  await insertRow(sql, 'schedule', {
    schedule_id: STORED,
    consensus_timestamp: GENESIS + SECOND,
    creator_account_id: CONTRACT,
    payer_account_id: CONTRACT,
    transaction_body: contractCallBody(TARGET, 100_000n, CALL_DATA),
    expiration_time: STORED_EXPIRY * SECOND,
    wait_for_expiry: true,
  });
});

const HSS = longZeroAddress(0x16bn);
const code = (name: string) => BigInt(responseCodeByName(name) ?? -1);
const CALL_DATA = calldata('ping()');

const scheduleCall = (expiry: bigint, gas = 100_000n, value = 0n) =>
  calldata(
    'scheduleCall(address,uint256,uint256,uint64,bytes)',
    encode(address(longZeroAddress(TARGET)), int(expiry), int(gas), int(value), bytes(CALL_DATA)),
  );
const withPayer = (signature: string, payer: Uint8Array, expiry: bigint) =>
  calldata(
    signature,
    encode(address(longZeroAddress(TARGET)), address(payer), int(expiry), int(100_000n), int(0n), bytes(CALL_DATA)),
  );
const scheduleArg = (schedule: Uint8Array) => encode(address(schedule));

async function contractEvm() {
  const system = await systemEvmAt(ledger.db, latest);
  await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
  return system;
}

describe('scheduled contract calls through 0x16b', () => {
  it('creates a schedule with the next entity number, for the ScheduleCreate-of-a-ContractCall gas', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const result = await call(HSS, scheduleCall(NOW + 1800n), { caller: longZeroAddress(CONTRACT) });
    const output = returned(result);
    expect(output.int(0)).toBe(code('SUCCESS'));
    expect(output.address(1)).toEqual(longZeroAddress(NEXT));
    expect(result.executionGasUsed).toBe(canonicalGas('SCHEDULE_CREATE_CONTRACT_CALL'));
  });

  it('answers the ScheduleCreate’s status and the zero address for an expiry not ahead, or too far ahead', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const caller = longZeroAddress(CONTRACT);
    for (const [expiry, status] of [
      [NOW, 'SCHEDULE_EXPIRATION_TIME_MUST_BE_HIGHER_THAN_CONSENSUS_TIME'],
      [0n, 'SCHEDULE_EXPIRATION_TIME_MUST_BE_HIGHER_THAN_CONSENSUS_TIME'],
      [NOW + 5_356_801n, 'SCHEDULE_EXPIRATION_TIME_TOO_FAR_IN_FUTURE'],
    ] as const) {
      const result = await call(HSS, scheduleCall(expiry), { caller });
      expect(result.exceptionError).toBeUndefined();
      expect(returned(result).int(0)).toBe(code(status));
      expect(returned(result).address(1)).toEqual(ZERO_ADDRESS);
      expect(result.executionGasUsed).toBe(canonicalGas('SCHEDULE_CREATE_CONTRACT_CALL'));
    }
    const farthest = await call(HSS, scheduleCall(NOW + 5_356_800n), { caller });
    expect(returned(farthest).int(0)).toBe(code('SUCCESS'));
  });

  it('schedules with a designated payer, and refuses a payer that is no account', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const caller = longZeroAddress(CONTRACT);
    for (const signature of [
      'scheduleCallWithPayer(address,address,uint256,uint256,uint64,bytes)',
      'executeCallOnPayerSignature(address,address,uint256,uint256,uint64,bytes)',
    ]) {
      const paid = returned(await call(HSS, withPayer(signature, longZeroAddress(PAYER), NOW + 60n), { caller }));
      expect(paid.int(0)).toBe(code('SUCCESS'));
      expect(paid.address(1)).toEqual(longZeroAddress(NEXT));
      const missing = returned(await call(HSS, withPayer(signature, longZeroAddress(4242n), NOW + 60n), { caller }));
      expect(missing.int(0)).toBe(code('ACCOUNT_ID_DOES_NOT_EXIST'));
    }
  });

  it('answers IDENTICAL_SCHEDULE_ALREADY_CREATED with the address of an identical schedule of the ledger', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const caller = longZeroAddress(CONTRACT);
    const same = returned(await call(HSS, scheduleCall(STORED_EXPIRY), { caller }));
    expect([same.int(0), same.address(1)]).toEqual([
      code('IDENTICAL_SCHEDULE_ALREADY_CREATED'),
      longZeroAddress(STORED),
    ]);
    const otherGas = returned(await call(HSS, scheduleCall(STORED_EXPIRY, 100_001n), { caller }));
    expect([otherGas.int(0), otherGas.address(1)]).toEqual([code('SUCCESS'), longZeroAddress(NEXT)]);
    // Another admin key (the account's own) makes another schedule.
    const byAccount = returned(await call(HSS, scheduleCall(STORED_EXPIRY), { caller: longZeroAddress(PAYER) }));
    expect(byAccount.int(0)).toBe(code('SUCCESS'));
  });

  it('executes a call on its payer’s signature at once when the creating contract is the payer', async () => {
    const system = await contractEvm();
    await system.deploy(longZeroAddress(TARGET), STORE_ONE);
    const signature = 'executeCallOnPayerSignature(address,address,uint256,uint256,uint64,bytes)';
    const result = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls(
        { to: HSS, data: withPayer(signature, longZeroAddress(CONTRACT), NOW + 60n) },
        { to: HSS, data: calldata('authorizeSchedule(address)', scheduleArg(longZeroAddress(NEXT))) },
      ),
    );
    expect(returned(result).int(0)).toBe(code('SCHEDULE_ALREADY_EXECUTED'));
    const slot = await system.evm.stateManager.getStorage(new Address(longZeroAddress(TARGET)), new Uint8Array(32));
    expect(Buffer.from(slot).toString('hex')).toBe('01');
    const waiting = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls(
        { to: HSS, data: scheduleCall(NOW + 60n) },
        { to: HSS, data: calldata('authorizeSchedule(address)', scheduleArg(longZeroAddress(NEXT))) },
      ),
    );
    expect(returned(waiting).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
  });

  it('halts for a sender that is no account, and for a value beyond uint64', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const stranger = await call(HSS, scheduleCall(NOW + 60n), { caller: longZeroAddress(4242n), gas: 90_000n });
    expect(stranger.exceptionError).toBeDefined();
    expect(stranger.executionGasUsed).toBe(90_000n);
    const huge = await call(HSS, scheduleCall(NOW + 60n, 100_000n, 1n << 64n), {
      caller: longZeroAddress(CONTRACT),
      gas: 90_000n,
    });
    expect(huge.exceptionError).toBeDefined();
  });

  it('finds the creating contract’s key among the signatories (directly and through the proxy), and lets it delete the schedule', async () => {
    const system = await contractEvm();
    const created = longZeroAddress(NEXT);
    const signed = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls(
        { to: HSS, data: scheduleCall(NOW + 60n) },
        { to: HSS, data: calldata('authorizeSchedule(address)', scheduleArg(created)) },
      ),
    );
    // The creation's own ContractID key signed it already: the later signing adds nothing.
    expect(returned(signed).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
    const deleted = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls(
        { to: HSS, data: scheduleCall(NOW + 60n) },
        { to: HSS, data: calldata('deleteSchedule(address)', scheduleArg(created)) },
      ),
    );
    expect(returned(deleted).int(0)).toBe(code('SUCCESS'));
    const throughProxy = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls({ to: HSS, data: scheduleCall(NOW + 60n) }, { to: created, data: calldata('signSchedule()') }),
    );
    expect(returned(throughProxy).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
    const fromAnother = await system.call(HSS, calldata('deleteSchedule(address)', scheduleArg(created)));
    expect(returned(fromAnother).int(0)).toBe(code('INVALID_SCHEDULE_ID'));
  });

  it('answers IDENTICAL_SCHEDULE_ALREADY_CREATED with the first schedule’s address for the same schedule twice', async () => {
    const system = await contractEvm();
    const again = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls({ to: HSS, data: scheduleCall(NOW + 60n) }, { to: HSS, data: scheduleCall(NOW + 60n) }),
    );
    expect(returned(again).int(0)).toBe(code('IDENTICAL_SCHEDULE_ALREADY_CREATED'));
    expect(returned(again).address(1)).toEqual(longZeroAddress(NEXT));
    const other = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls({ to: HSS, data: scheduleCall(NOW + 60n) }, { to: HSS, data: scheduleCall(NOW + 61n) }),
    );
    expect(returned(other).address(1)).toEqual(longZeroAddress(NEXT + 1n));
  });

  it('answers hasScheduleCapacity for an expiry the ScheduleCreate would accept, for the view gas', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const capacity = (expiry: bigint) =>
      call(HSS, calldata('hasScheduleCapacity(uint256,uint256)', encode(int(expiry), int(2_000_000n))));
    const ahead = await capacity(NOW + 1800n);
    expect(returned(ahead).bool(0)).toBe(true);
    expect(ahead.executionGasUsed).toBe(VIEW_GAS);
    for (const expiry of [NOW, NOW + 5_356_801n, 1n << 200n])
      expect(returned(await capacity(expiry)).bool(0)).toBe(false);
    const short = await call(HSS, calldata('hasScheduleCapacity(uint256,uint256)', encode(int(NOW + 60n))), {
      gas: 30_000n,
    });
    expect(short.exceptionError).toBeDefined();
  });
});
