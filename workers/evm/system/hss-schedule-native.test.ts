import { Address } from '@ethereumjs/util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { GENESIS, insertBlocks, ledgerBlock, SECOND, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { returned, revertText, systemEvmAt } from '../../../test/harness/factories-evm-system.ts';
import { insertEntity, insertToken } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, bool, bytes, encode, int, string, tuple } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import { scheduleMessage, signatureMapOf } from './testing/schedule-bodies.ts';
import { calldata } from './testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from './testing/two-calls.ts';
import { contractKeyBytes, HEDERA_TOKEN_V3 } from './token-structs.ts';

const PAYER = 1001n;
const CONTRACT = 1002n;
/** A token whose admin key is CONTRACT's ContractID key, and one without an admin key. */
const ADMINED = 1003n;
const IMMUTABLE = 1004n;
/** The number the run's first created entity takes: the one after the ledger's highest. */
const NEXT = 1005n;

const latest = ledgerBlock(20n, GENESIS + 200n * SECOND);
const payerSecret = ed25519.utils.randomSecretKey();
const PAYER_PUBLIC = ed25519.getPublicKey(payerSecret);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, PAYER, GENESIS, { key: Buffer.concat([Buffer.from('1220', 'hex'), PAYER_PUBLIC]) });
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT' });
  const adminKey = Buffer.from(contractKeyBytes(longZeroAddress(CONTRACT), false, { shard: 0n, realm: 0n }));
  await insertToken(sql, ADMINED, GENESIS, { treasury_account_id: PAYER });
  await sql.query('update entity set key = $1 where id = $2', [adminKey, ADMINED]);
  await insertToken(sql, IMMUTABLE, GENESIS, { treasury_account_id: PAYER });
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
  const FIXED_FEE = '(int64,address,bool,bool,address)';
  const FRACTIONAL_FEE = '(int64,int64,int64,int64,bool,address)';
  /** A creation whose one fixed fee (5 of the new token) goes to `collector`. */
  const createWithFee = (collector: bigint) =>
    calldata(
      `createFungibleTokenWithCustomFees(${HEDERA_TOKEN_V3},int64,int32,${FIXED_FEE}[],${FRACTIONAL_FEE}[])`,
      encode(
        token,
        int(10n),
        int(0n),
        array([
          tuple(int(5n), address(longZeroAddress(0n)), bool(false), bool(true), address(longZeroAddress(collector))),
        ]),
        array([]),
      ),
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

  it('holds the TokenCreate the call data describes, which the scheduled-token views of the run answer', async () => {
    const system = await contractEvm();
    const schedule = { to: HSS, data: scheduleNative(HTS, createWithFee(PAYER), longZeroAddress(PAYER)) };
    const info = (kind: string) => ({
      to: HSS,
      data: calldata(`${kind}(address)`, scheduleArg(longZeroAddress(NEXT))),
    });
    const fungible = returned(
      await system.call(longZeroAddress(CONTRACT), twoCalls(schedule, info('getScheduledCreateFungibleTokenInfo'))),
    );
    expect(fungible.int(0)).toBe(code('SUCCESS'));
    const tokenInfo = fungible.tuple(1).tuple(0);
    expect(new TextDecoder().decode(tokenInfo.tuple(0).bytes(0))).toBe('Later');
    expect(tokenInfo.tuple(0).address(2)).toEqual(longZeroAddress(PAYER));
    expect(tokenInfo.int(1)).toBe(10n);
    const fixed = tokenInfo.array(5);
    expect([fixed.length, fixed.items.int(0), fixed.items.address(4)]).toEqual([1, 5n, longZeroAddress(PAYER)]);
    const other = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls(schedule, info('getScheduledCreateNonFungibleTokenInfo')),
    );
    expect(revertText(other)).toBe('INVALID_SCHEDULE_ID');
  });

  it('reverts with INVALID_CUSTOM_FEE_COLLECTOR for a fee whose collector is no account', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const result = await call(HSS, scheduleNative(HTS, createWithFee(4242n), longZeroAddress(PAYER)), {
      caller: longZeroAddress(CONTRACT),
    });
    expect(revertText(result)).toBe('INVALID_CUSTOM_FEE_COLLECTOR');
    expect(result.executionGasUsed).toBe(canonicalGas('SCHEDULE_CREATE'));
  });

  it('creates the token once the payer and treasury’s signature completes the schedule', async () => {
    const system = await contractEvm();
    const message = scheduleMessage(NEXT);
    const map = signatureMapOf([{ publicKey: PAYER_PUBLIC, field: 3, signature: ed25519.sign(message, payerSecret) }]);
    const sign = calldata('signSchedule(address,bytes)', encode(address(longZeroAddress(NEXT)), bytes(map)));
    const result = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls({ to: HSS, data: scheduleNative(HTS, createFungible, longZeroAddress(PAYER)) }, { to: HSS, data: sign }),
    );
    expect(returned(result).int(0)).toBe(code('SUCCESS'));
    // The token takes the number after the schedule's, and its address shows the token's redirect proxy.
    const tokenCode = await system.evm.stateManager.getCode(new Address(longZeroAddress(NEXT + 1n)));
    expect(tokenCode.length).toBeGreaterThan(0);
  });

  it('runs a token update at once when the calling contract pays and holds the admin key', async () => {
    const system = await systemEvmAt(ledger.db, latest, [{ kind: 'TOKEN', address: longZeroAddress(ADMINED) }]);
    await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
    const renamed = tuple(
      string('Renamed'),
      string(''),
      address(longZeroAddress(0n)),
      string(''),
      bool(false),
      int(0n),
      bool(false),
      array([]),
      tuple(int(0n), address(longZeroAddress(0n)), int(0n)),
    );
    const rename = (token: bigint) =>
      calldata(`updateTokenInfo(address,${HEDERA_TOKEN_V3})`, encode(address(longZeroAddress(token)), renamed));
    const schedule = scheduleNative(HTS, rename(ADMINED), longZeroAddress(CONTRACT));
    const result = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls({ to: HSS, data: schedule }, { to: longZeroAddress(ADMINED), data: calldata('name()') }),
    );
    expect(new TextDecoder().decode(returned(result).bytes(0))).toBe('Renamed');
    const immutable = await system.call(HSS, scheduleNative(HTS, rename(IMMUTABLE), longZeroAddress(CONTRACT)), {
      caller: longZeroAddress(CONTRACT),
    });
    expect(revertText(immutable)).toBe('TOKEN_IS_IMMUTABLE');
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
