import { describe, expect, it } from 'vitest';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import {
  latest,
  returned,
  seedTokenLedger,
  systemEvmAt,
  TOKEN_REDIRECTS,
} from '../../../test/harness/factories-evm-system.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { AbiArgs, type AbiValue, address, array, bool, bytes, encode, int, string, tuple } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { calldata } from './testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from './testing/two-calls.ts';

const CONTRACT = 1700n;
const UPDATABLE = 1900n;
/** The highest entity of the ledger: a created token takes the next number. */
const NEXT_ID = UPDATABLE + 1n;
/** Key { contractID { contractNum: 1700 } }. */
const CONTRACT_KEY = Buffer.from('0a0318a40d', 'hex');
const ED_KEY = new Uint8Array(32).fill(0xab);

const ledger = useEvmLedger(async (sql) => {
  await seedTokenLedger(sql);
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT', key: CONTRACT_KEY });
  await insertToken(sql, UPDATABLE, GENESIS, {
    name: 'Old',
    symbol: 'OLD',
    treasury_account_id: CONTRACT,
    supply_key: CONTRACT_KEY,
    pause_key: CONTRACT_KEY,
  });
  await sql.query('update entity set key = $1, expiration_timestamp = $2, auto_renew_period = 7776000 where id = $3', [
    CONTRACT_KEY,
    GENESIS + 7_776_000n * 1_000_000_000n,
    UPDATABLE,
  ]);
  await insertTokenAccount(sql, { account_id: CONTRACT, token_id: UPDATABLE, balance: 0 });
});

const HTS = longZeroAddress(0x167n);
const contract = longZeroAddress(CONTRACT);
const updatable = longZeroAddress(UPDATABLE);
/** The TokenCreate price at the genesis rate (1 ℏ = 12 ¢): $1 in tinybars plus a fifth, less 100,000 gas at 852 tinycents. */
const CREATE_FEE = 833_333_333n + 166_666_666n - 100_000n * 71n;

const contractKey = (keyType: bigint): AbiValue =>
  tuple(
    int(keyType),
    tuple(bool(false), address(contract), bytes(new Uint8Array()), bytes(new Uint8Array()), address(ZERO_ADDRESS)),
  );

const hederaToken = (name: string, symbol: string, keys: AbiValue[]) =>
  tuple(
    string(name),
    string(symbol),
    address(contract),
    string('memo'),
    bool(true),
    int(10_000n),
    bool(false),
    array(keys),
    tuple(int(0n), address(contract), int(7_776_000n)),
  );

const HEDERA_TOKEN =
  '(string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(int64,address,int64))';
const createFungible = (token: AbiValue) =>
  calldata(`createFungibleToken(${HEDERA_TOKEN},int64,int32)`, encode(token, int(1000n), int(2n)));

async function evm() {
  const system = await systemEvmAt(ledger.db, latest, [...TOKEN_REDIRECTS, { kind: 'TOKEN', address: updatable }]);
  await system.deploy(contract, TWO_CALLS);
  return system;
}

describe('token creation on 0x167', () => {
  it('creates a fungible token for the fee sent, numbered after the highest entity, its supply with the treasury', async () => {
    const system = await evm();
    const created = longZeroAddress(NEXT_ID);
    const result = await system.call(
      contract,
      twoCalls(
        { to: HTS, data: createFungible(hederaToken('New', 'NEW', [contractKey(1n | 16n)])) },
        { to: created, data: calldata('balanceOf(address)', encode(address(contract))) },
      ),
      { value: CREATE_FEE },
    );
    expect(returned(result).uint(0)).toBe(1000n);
    const alone = await system.call(HTS, createFungible(hederaToken('New', 'NEW', [])), {
      caller: contract,
      value: CREATE_FEE,
    });
    const out = returned(alone);
    expect([out.int(0), out.address(1)]).toEqual([22n, created]);
    expect(alone.executionGasUsed).toBe(100_000n);
  });

  it('answers INSUFFICIENT_TX_FEE for less value than the price, and reverts for a missing symbol', async () => {
    const system = await evm();
    const short = await system.call(HTS, createFungible(hederaToken('New', 'NEW', [])), {
      caller: contract,
      value: CREATE_FEE - 1n,
    });
    const out = returned(short);
    expect([out.int(0), out.address(1)]).toEqual([9n, ZERO_ADDRESS]);
    const noSymbol = await system.call(HTS, createFungible(hederaToken('New', '', [])), {
      caller: contract,
      value: CREATE_FEE,
    });
    expect(new TextDecoder().decode(noSymbol.returnValue)).toBe('MISSING_TOKEN_SYMBOL');
  });

  it('prices an NFT with custom fees at twice the TokenCreate price and needs a supply key', async () => {
    const system = await evm();
    const royalty = array([tuple(int(1n), int(10n), int(0n), address(ZERO_ADDRESS), bool(true), address(contract))]);
    const create = (keys: AbiValue[]) =>
      calldata(
        `createNonFungibleTokenWithCustomFees(${HEDERA_TOKEN},(int64,address,bool,bool,address)[],(int64,int64,int64,address,bool,address)[])`,
        encode(hederaToken('Art', 'ART', keys), array([]), royalty),
      );
    const once = returned(await system.call(HTS, create([contractKey(16n)]), { caller: contract, value: CREATE_FEE }));
    expect(once.int(0)).toBe(9n);
    const twice = returned(
      await system.call(HTS, create([contractKey(16n)]), { caller: contract, value: 2n * CREATE_FEE + 8_000_000n }),
    );
    expect(twice.int(0)).toBe(22n);
    const noSupplyKey = await system.call(HTS, create([]), { caller: contract, value: 3n * CREATE_FEE });
    expect(noSupplyKey.exceptionError?.error).toBe('revert');
    expect(new AbiArgs(noSupplyKey.returnValue).uint(0)).toBe(180n);
  });
});

describe('token updates on 0x167', () => {
  it('renames a token with updateTokenInfo, seen by name() later in the run', async () => {
    const system = await evm();
    const update = calldata(
      `updateTokenInfo(address,${HEDERA_TOKEN})`,
      encode(address(updatable), hederaToken('Renamed', 'RNM', [])),
    );
    const result = await system.call(
      contract,
      twoCalls({ to: HTS, data: update }, { to: updatable, data: calldata('name()') }),
    );
    expect(new TextDecoder().decode(returned(result).bytes(0))).toBe('Renamed');
    const stranger = returned(await system.call(HTS, update, { caller: longZeroAddress(1001n) }));
    expect(stranger.int(0)).toBe(326n);
  });

  it('replaces a key with updateTokenKeys and refuses to add one the token never had', async () => {
    const system = await evm();
    const edKey = (keyType: bigint) =>
      tuple(
        int(keyType),
        tuple(bool(false), address(ZERO_ADDRESS), bytes(ED_KEY), bytes(new Uint8Array()), address(ZERO_ADDRESS)),
      );
    const update = (keyType: bigint) =>
      calldata(
        'updateTokenKeys(address,(uint256,(bool,address,bytes,bytes,address))[])',
        encode(address(updatable), array([edKey(keyType)])),
      );
    const key = await system.call(
      contract,
      twoCalls(
        { to: HTS, data: update(64n) },
        { to: HTS, data: calldata('getTokenKey(address,uint256)', encode(address(updatable), int(64n))) },
      ),
    );
    const answer = returned(key);
    expect(answer.int(0)).toBe(22n);
    expect(answer.tuple(1).bytes(2)).toEqual(ED_KEY);
    expect(returned(await system.call(HTS, update(8n), { caller: contract })).int(0)).toBe(181n);
  });

  it('sets the expiry with updateTokenExpiryInfo and refuses an auto-renew period out of bounds', async () => {
    const system = await evm();
    const update = (period: bigint) =>
      calldata(
        'updateTokenExpiryInfo(address,(int64,address,int64))',
        encode(address(updatable), tuple(int(0n), address(contract), int(period))),
      );
    expect(returned(await system.call(HTS, update(8_000_000n), { caller: contract })).int(0)).toBe(22n);
    expect(returned(await system.call(HTS, update(10n), { caller: contract })).int(0)).toBe(70n);
  });
});
