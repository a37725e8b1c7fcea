import { EVMError, type ExecResult } from '@ethereumjs/evm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type Database } from '../../../db/client.ts';
import { proxyTarget, type SqlProxy, startSqlProxy } from '../../../db/local/sql-proxy.ts';
import { insertRow } from '../../../test/harness/factories.ts';
import { insertAccountBalance, insertNftAllowance } from '../../../test/harness/factories-accounts.ts';
import { insertRecordFile } from '../../../test/harness/factories-blocks.ts';
import { insertEntity, insertNft, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/test-database.ts';
import { longZeroAddress } from '../addresses.ts';
import { SessionLedger } from '../ledger-reader.ts';
import { type BlockContext, EvmRequestError, type EvmSettings } from '../types.ts';
import { AbiArgs, address, encode, int, selectorOf } from './abi.ts';
import { VIEW_GAS } from './results.ts';
import { type SystemEvm, systemEvm } from './testing/system-evm.ts';

const SECOND = 1_000_000_000n;
const GENESIS = 1_700_000_000n * SECOND;
const SNAPSHOT = GENESIS + 30n * SECOND;
const HOLDER = 1001n;
const SPENDER = 1002n;
const ALIASED = 1003n;
const FUNGIBLE = 1500n;
const NFT = 1600n;
const ALIAS = Buffer.from('7f'.repeat(20), 'hex');
const ADMIN_KEY = Buffer.from(`1220${'ab'.repeat(32)}`, 'hex');
const HTS = longZeroAddress(0x167n);

const settings: EvmSettings = {
  chainId: 296n,
  network: 'TESTNET',
  maxGasLimit: 15_000_000n,
  validatePayerBalance: false,
  shard: 0n,
  realm: 0n,
};

/** Block 10 closes between the transfers before it and those after it. */
const past: BlockContext = {
  number: 10n,
  consensusStart: SNAPSHOT + 8n * SECOND,
  consensusEnd: SNAPSHOT + 10n * SECOND,
  hash: 'a1'.repeat(48),
  historical: true,
};
const latest: BlockContext = {
  number: 20n,
  consensusStart: SNAPSHOT + 100n * SECOND,
  consensusEnd: SNAPSHOT + 102n * SECOND,
  hash: 'b2'.repeat(48),
  historical: false,
};

let testDb: TestDatabase;
let proxy: SqlProxy;
let db: Database;

async function seed(sql: TestDatabase['sql']): Promise<void> {
  for (const block of [past, latest]) {
    await insertRecordFile(sql, {
      index: block.number,
      consensus_start: block.consensusStart,
      consensus_end: block.consensusEnd,
      hash: block.hash,
    });
  }
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, HOLDER, GENESIS, { balance: 100n });
  await insertEntity(sql, SPENDER, GENESIS, { balance: 100n });
  await insertEntity(sql, ALIASED, GENESIS, { balance: 100n, evm_address: ALIAS });
  await insertToken(sql, FUNGIBLE, GENESIS, {
    name: 'Gold',
    symbol: 'GLD',
    decimals: 2,
    total_supply: 1000,
    supply_type: 'FINITE',
    max_supply: 5000,
    treasury_account_id: HOLDER,
    freeze_key: ADMIN_KEY,
    freeze_default: false,
  });
  await sql.query('update entity set key = $1, expiration_timestamp = $2, auto_renew_period = 7776000 where id = $3', [
    ADMIN_KEY,
    GENESIS + 7_776_000n * SECOND,
    FUNGIBLE,
  ]);
  await insertRow(sql, 'custom_fee', {
    entity_id: FUNGIBLE,
    fixed_fees: JSON.stringify([{ amount: 5, collector_account_id: Number(SPENDER) }]),
    timestamp_range: `[${GENESIS},)`,
  });
  await insertToken(sql, NFT, GENESIS, {
    name: 'Art',
    symbol: 'ART',
    decimals: 0,
    total_supply: 2,
    initial_supply: 0,
    type: 'NON_FUNGIBLE_UNIQUE',
    treasury_account_id: HOLDER,
  });
  await insertNft(sql, {
    token_id: NFT,
    serial_number: 1,
    created_timestamp: GENESIS + 5n * SECOND,
    account_id: HOLDER,
    spender: SPENDER,
    metadata: Buffer.from('ipfs://one'),
  });
  await insertNft(sql, {
    token_id: NFT,
    serial_number: 2,
    created_timestamp: GENESIS + 6n * SECOND,
    account_id: ALIASED,
  });
  await insertNftAllowance(sql, { owner: HOLDER, spender: SPENDER, token_id: NFT });
  await insertTokenAccount(sql, { account_id: HOLDER, token_id: FUNGIBLE, balance: 700 });
  await insertTokenAccount(sql, { account_id: ALIASED, token_id: FUNGIBLE, balance: 300, freeze_status: 1 });
  await insertTokenAccount(sql, { account_id: HOLDER, token_id: NFT, balance: 1 });
  await insertRow(sql, 'token_allowance', {
    owner: HOLDER,
    spender: SPENDER,
    token_id: FUNGIBLE,
    amount: 50,
    amount_granted: 60,
    payer_account_id: HOLDER,
    timestamp_range: `[${GENESIS},)`,
  });
  // The snapshot before block 10, then a transfer and a mint before it and a transfer and a burn after it.
  await insertAccountBalance(sql, { account_id: 2, balance: 5_000_000_000, consensus_timestamp: SNAPSHOT });
  await insertRow(sql, 'token_balance', {
    account_id: HOLDER,
    token_id: FUNGIBLE,
    balance: 1000,
    consensus_timestamp: SNAPSHOT,
  });
  const transfers: [bigint, bigint, number][] = [
    [SNAPSHOT + 5n * SECOND, HOLDER, -100],
    [SNAPSHOT + 5n * SECOND, ALIASED, 100],
    [SNAPSHOT + 6n * SECOND, HOLDER, 50],
    [SNAPSHOT + 50n * SECOND, HOLDER, -200],
    [SNAPSHOT + 50n * SECOND, ALIASED, 200],
    [SNAPSHOT + 60n * SECOND, HOLDER, -50],
  ];
  for (const [timestamp, account, amount] of transfers) {
    await insertRow(sql, 'token_transfer', {
      token_id: FUNGIBLE,
      account_id: account,
      amount,
      consensus_timestamp: timestamp,
      payer_account_id: HOLDER,
    });
  }
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(testDb.url, inject('pgSocketDir'))] });
  db = createDatabase({ url: testDb.url, localProxy: proxy.address });
  await seed(testDb.sql);
});

afterAll(async () => {
  await proxy?.close();
  await testDb?.drop();
});

const tokens = [
  { kind: 'TOKEN' as const, address: longZeroAddress(FUNGIBLE) },
  { kind: 'TOKEN' as const, address: longZeroAddress(NFT) },
];

const evmAt = (block: BlockContext): Promise<SystemEvm> => systemEvm(new SessionLedger(db, block, settings), tokens);

const calldata = (signature: string, ...args: Uint8Array[]): Uint8Array => {
  const selector = new Uint8Array(4);
  new DataView(selector.buffer).setUint32(0, selectorOf(signature));
  return new Uint8Array(Buffer.concat([selector, ...args]));
};
const word = (value: bigint) => encode(int(value));
const addressArg = (value: Uint8Array) => encode(address(value));

function returned(result: ExecResult): AbiArgs {
  expect(result.exceptionError).toBeUndefined();
  return new AbiArgs(result.returnValue);
}

const revertText = (result: ExecResult): string => {
  expect(result.exceptionError?.error).toBe(EVMError.errorMessages.REVERT);
  return Buffer.from(result.returnValue).toString('utf8');
};

/** A string return value (one dynamic `string` output). */
const text = (args: AbiArgs) => new TextDecoder().decode(args.bytes(0));

describe('ERC reads of a token through its redirect proxy', () => {
  it('answers name, symbol, decimals and totalSupply of a fungible token', async () => {
    const { call } = await evmAt(latest);
    const token = longZeroAddress(FUNGIBLE);
    expect(text(returned(await call(token, calldata('name()'))))).toBe('Gold');
    expect(text(returned(await call(token, calldata('symbol()'))))).toBe('GLD');
    expect(returned(await call(token, calldata('decimals()'))).uint(0)).toBe(2n);
    expect(returned(await call(token, calldata('totalSupply()'))).uint(0)).toBe(1000n);
  });

  it('answers balanceOf for an account by long-zero address and for one by its EVM address', async () => {
    const { call } = await evmAt(latest);
    const token = longZeroAddress(FUNGIBLE);
    const holder = await call(token, calldata('balanceOf(address)', addressArg(longZeroAddress(HOLDER))));
    expect(returned(holder).uint(0)).toBe(700n);
    expect(returned(await call(token, calldata('balanceOf(address)', addressArg(ALIAS)))).uint(0)).toBe(300n);
  });

  it('reverts balanceOf with INVALID_ACCOUNT_ID for an unknown account and for the long-zero form of an aliased one', async () => {
    const { call } = await evmAt(latest);
    const token = longZeroAddress(FUNGIBLE);
    expect(revertText(await call(token, calldata('balanceOf(address)', addressArg(longZeroAddress(4242n)))))).toBe(
      'INVALID_ACCOUNT_ID',
    );
    expect(revertText(await call(token, calldata('balanceOf(address)', addressArg(longZeroAddress(ALIASED)))))).toBe(
      'INVALID_ACCOUNT_ID',
    );
  });

  it('answers allowance from token_allowance', async () => {
    const { call } = await evmAt(latest);
    const args = [addressArg(longZeroAddress(HOLDER)), addressArg(longZeroAddress(SPENDER))];
    const result = await call(longZeroAddress(FUNGIBLE), calldata('allowance(address,address)', ...args));
    expect(returned(result).uint(0)).toBe(50n);
  });

  it('answers ownerOf with the owner’s EVM address when it has one, and reverts for an unknown serial', async () => {
    const { call } = await evmAt(latest);
    const nft = longZeroAddress(NFT);
    expect(returned(await call(nft, calldata('ownerOf(uint256)', word(1n)))).address(0)).toEqual(
      longZeroAddress(HOLDER),
    );
    expect(returned(await call(nft, calldata('ownerOf(uint256)', word(2n)))).address(0)).toEqual(new Uint8Array(ALIAS));
    expect(revertText(await call(nft, calldata('ownerOf(uint256)', word(3n))))).toBe('INVALID_TOKEN_NFT_SERIAL_NUMBER');
  });

  it('answers tokenURI with the metadata, and the ERC-721 text for a serial that does not exist', async () => {
    const { call } = await evmAt(latest);
    const nft = longZeroAddress(NFT);
    expect(text(returned(await call(nft, calldata('tokenURI(uint256)', word(1n)))))).toBe('ipfs://one');
    expect(text(returned(await call(nft, calldata('tokenURI(uint256)', word(9n)))))).toBe(
      'ERC721Metadata: URI query for nonexistent token',
    );
  });

  it('answers getApproved and isApprovedForAll of an NFT, and reverts decimals', async () => {
    const { call } = await evmAt(latest);
    const nft = longZeroAddress(NFT);
    expect(returned(await call(nft, calldata('getApproved(uint256)', word(1n)))).address(0)).toEqual(
      longZeroAddress(SPENDER),
    );
    expect(returned(await call(nft, calldata('getApproved(uint256)', word(2n)))).address(0)).toEqual(
      new Uint8Array(20),
    );
    const owners = [addressArg(longZeroAddress(HOLDER)), addressArg(longZeroAddress(SPENDER))];
    expect(returned(await call(nft, calldata('isApprovedForAll(address,address)', ...owners))).bool(0)).toBe(true);
    expect(returned(await call(nft, calldata('totalSupply()'))).uint(0)).toBe(2n);
    expect(revertText(await call(nft, calldata('decimals()')))).toBe('INVALID_TOKEN_ID');
  });

  it('answers a contract that calls the token with STATICCALL, as IERC20(token).balanceOf does', async () => {
    const system = await evmAt(latest);
    const forwarder = longZeroAddress(5555n);
    // calldatacopy(0, 0, calldatasize); staticcall(gas, token, 0, calldatasize, 0, 0); return the return data
    const code = Buffer.concat([
      Buffer.from('365f5f375f5f365f73', 'hex'),
      Buffer.from(longZeroAddress(FUNGIBLE)),
      Buffer.from('5afa503d5f5f3e3d5ff3', 'hex'),
    ]);
    await system.deploy(forwarder, new Uint8Array(code));
    const result = await system.call(forwarder, calldata('balanceOf(address)', addressArg(longZeroAddress(HOLDER))));
    expect(returned(result).uint(0)).toBe(700n);
  });

  it('answers with the state at a historical block: balances and supply from the snapshot and the transfers since', async () => {
    const { call } = await evmAt(past);
    const token = longZeroAddress(FUNGIBLE);
    const holder = await call(token, calldata('balanceOf(address)', addressArg(longZeroAddress(HOLDER))));
    expect(returned(holder).uint(0)).toBe(950n);
    expect(returned(await call(token, calldata('balanceOf(address)', addressArg(ALIAS)))).uint(0)).toBe(100n);
    expect(returned(await call(token, calldata('totalSupply()'))).uint(0)).toBe(1050n);
  });

  it('answers 501 for a write such as transfer', async () => {
    const { call } = await evmAt(latest);
    const transfer = calldata('transfer(address,uint256)', addressArg(longZeroAddress(SPENDER)), word(1n));
    await expect(call(longZeroAddress(FUNGIBLE), transfer)).rejects.toEqual(
      new EvmRequestError(501, 'Not Implemented'),
    );
  });
});

describe('HTS functions called on 0x167 directly', () => {
  it('charges the view gas and answers isToken with SUCCESS', async () => {
    const { call } = await evmAt(latest);
    const result = await call(HTS, calldata('isToken(address)', addressArg(longZeroAddress(FUNGIBLE))));
    expect(result.executionGasUsed).toBe(VIEW_GAS);
    const args = returned(result);
    expect([args.int(0), args.bool(1)]).toEqual([22n, true]);
    const account = returned(await call(HTS, calldata('isToken(address)', addressArg(longZeroAddress(HOLDER)))));
    expect(account.bool(1)).toBe(false);
  });

  it('fails a call without calldata', async () => {
    const { call } = await evmAt(latest);
    const result = await call(HTS, new Uint8Array(0), { gas: 100_000n });
    expect(result.exceptionError).toBeDefined();
    expect(result.executionGasUsed).toBe(100_000n);
  });

  it('answers getTokenType, the default freeze and KYC statuses, isFrozen and isKyc', async () => {
    const { call } = await evmAt(latest);
    const fungible = addressArg(longZeroAddress(FUNGIBLE));
    expect(returned(await call(HTS, calldata('getTokenType(address)', addressArg(longZeroAddress(NFT))))).int(1)).toBe(
      1n,
    );
    expect(returned(await call(HTS, calldata('getTokenDefaultFreezeStatus(address)', fungible))).bool(1)).toBe(false);
    expect(returned(await call(HTS, calldata('getTokenDefaultKycStatus(address)', fungible))).bool(1)).toBe(true);
    const frozen = returned(await call(HTS, calldata('isFrozen(address,address)', fungible, addressArg(ALIAS))));
    expect([frozen.int(0), frozen.bool(1)]).toEqual([22n, true]);
    const holder = addressArg(longZeroAddress(HOLDER));
    expect(returned(await call(HTS, calldata('isFrozen(address,address)', fungible, holder))).bool(1)).toBe(false);
    expect(returned(await call(HTS, calldata('isKyc(address,address)', fungible, holder))).bool(1)).toBe(true);
  });

  it('answers INVALID_TOKEN_ID with default values for an address that is not a token', async () => {
    const { call } = await evmAt(latest);
    const result = returned(await call(HTS, calldata('getTokenType(address)', addressArg(longZeroAddress(HOLDER)))));
    expect([result.int(0), result.int(1)]).toEqual([167n, 0n]);
  });

  it('answers getTokenExpiryInfo as (code, (second, autoRenewAccount, autoRenewPeriod))', async () => {
    const { call } = await evmAt(latest);
    const result = await call(HTS, calldata('getTokenExpiryInfo(address)', addressArg(longZeroAddress(FUNGIBLE))));
    const args = returned(result);
    expect(result.returnValue.length).toBe(4 * 32);
    expect([args.int(0), args.int(1), args.uint(2), args.int(3)]).toEqual([
      22n,
      GENESIS / SECOND + 7_776_000n,
      0n,
      7_776_000n,
    ]);
  });

  it('answers getTokenKey with the ED25519 admin key, and KEY_NOT_PROVIDED for a key the token lacks', async () => {
    const { call } = await evmAt(latest);
    const fungible = addressArg(longZeroAddress(FUNGIBLE));
    const admin = returned(await call(HTS, calldata('getTokenKey(address,uint256)', fungible, word(1n))));
    expect(admin.int(0)).toBe(22n);
    const keyValue = admin.tuple(1);
    expect([keyValue.bool(0), keyValue.address(1), keyValue.address(4)]).toEqual([
      false,
      new Uint8Array(20),
      new Uint8Array(20),
    ]);
    expect(keyValue.bytes(2)).toEqual(new Uint8Array(ADMIN_KEY.subarray(2)));
    expect(keyValue.bytes(3)).toEqual(new Uint8Array(0));
    const wipe = returned(await call(HTS, calldata('getTokenKey(address,uint256)', fungible, word(8n))));
    expect(wipe.int(0)).toBe(44n);
  });

  it('answers getTokenInfo field for field in the order of IHederaTokenService', async () => {
    const { call } = await evmAt(latest);
    const result = returned(await call(HTS, calldata('getTokenInfo(address)', addressArg(longZeroAddress(FUNGIBLE)))));
    expect(result.int(0)).toBe(22n);
    const info = result.tuple(1);
    const token = info.tuple(0);
    expect(new TextDecoder().decode(token.bytes(0))).toBe('Gold');
    expect(new TextDecoder().decode(token.bytes(1))).toBe('GLD');
    expect(token.address(2)).toEqual(longZeroAddress(HOLDER));
    expect(new TextDecoder().decode(token.bytes(3))).toBe(`token ${FUNGIBLE}`);
    expect([token.bool(4), token.int(5), token.bool(6)]).toEqual([true, 5000n, false]);
    const keys = token.array(7);
    expect(keys.length).toBe(7);
    expect(keys.items.tuple(2).uint(0)).toBe(4n);
    expect(keys.items.tuple(2).tuple(1).bytes(2)).toEqual(new Uint8Array(ADMIN_KEY.subarray(2)));
    // Expiry is a static tuple: three words inline, after the keys' offset.
    expect([token.int(8), token.uint(9), token.int(10)]).toEqual([GENESIS / SECOND + 7_776_000n, 0n, 7_776_000n]);
    expect([info.int(1), info.bool(2), info.bool(3), info.bool(4)]).toEqual([1000n, false, true, false]);
    const fixed = info.array(5);
    expect(fixed.length).toBe(1);
    const fee = fixed.items;
    expect([fee.int(0), fee.address(1), fee.bool(2), fee.bool(3), fee.address(4)]).toEqual([
      5n,
      new Uint8Array(20),
      true,
      false,
      longZeroAddress(SPENDER),
    ]);
    expect([info.array(6).length, info.array(7).length]).toEqual([0, 0]);
    expect(new TextDecoder().decode(info.bytes(8))).toBe('0x01');
  });

  it('answers getNonFungibleTokenInfo with the serial, owner, mint time, metadata and spender', async () => {
    const { call } = await evmAt(latest);
    const nft = addressArg(longZeroAddress(NFT));
    const result = returned(await call(HTS, calldata('getNonFungibleTokenInfo(address,int64)', nft, word(1n))));
    expect(result.int(0)).toBe(22n);
    const info = result.tuple(1);
    expect(new TextDecoder().decode(info.tuple(0).tuple(0).bytes(0))).toBe('Art');
    expect([info.int(1), info.address(2), info.int(3)]).toEqual([1n, longZeroAddress(HOLDER), GENESIS / SECOND + 5n]);
    expect(new TextDecoder().decode(info.bytes(4))).toBe('ipfs://one');
    expect(info.address(5)).toEqual(longZeroAddress(SPENDER));
    const missing = returned(await call(HTS, calldata('getNonFungibleTokenInfo(address,int64)', nft, word(7n))));
    expect(missing.int(0)).toBe(225n);
  });

  it('answers allowance, getApproved and isApprovedForAll with a response code', async () => {
    const { call } = await evmAt(latest);
    const holder = addressArg(longZeroAddress(HOLDER));
    const spender = addressArg(longZeroAddress(SPENDER));
    const fungible = addressArg(longZeroAddress(FUNGIBLE));
    const nft = addressArg(longZeroAddress(NFT));
    const allowance = returned(
      await call(HTS, calldata('allowance(address,address,address)', fungible, holder, spender)),
    );
    expect([allowance.int(0), allowance.uint(1)]).toEqual([22n, 50n]);
    const approved = returned(await call(HTS, calldata('getApproved(address,uint256)', nft, word(1n))));
    expect([approved.int(0), approved.address(1)]).toEqual([22n, longZeroAddress(SPENDER)]);
    const all = returned(await call(HTS, calldata('isApprovedForAll(address,address,address)', nft, holder, spender)));
    expect([all.int(0), all.bool(1)]).toEqual([22n, true]);
  });

  it('answers 501 for a write such as mintToken', async () => {
    const { call } = await evmAt(latest);
    const mint = calldata('mintToken(address,int64,bytes[])', addressArg(longZeroAddress(FUNGIBLE)), word(1n));
    await expect(call(HTS, mint)).rejects.toEqual(new EvmRequestError(501, 'Not Implemented'));
  });
});
