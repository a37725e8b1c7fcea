import { EVMError } from '@ethereumjs/evm';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { GENESIS, insertBlocks, ledgerBlock, SECOND, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { insertRow } from '../../../test/harness/factories.ts';
import { insertCryptoAllowance } from '../../../test/harness/factories-accounts.ts';
import { returned, systemEvmAt } from '../../../test/harness/factories-evm-system.ts';
import { exchangeRateSetBytes, FILE_CREATE, insertFileData } from '../../../test/harness/factories-network.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import type { BlockContext } from '../types.ts';
import { AbiArgs, address, bytes, encode, int } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import { EXCHANGE_RATE_GAS, PRNG_GAS, VIEW_GAS } from './results.ts';
import { messageField, varintField } from './testing/schedule-bodies.ts';
import { calldata } from './testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from './testing/two-calls.ts';

const OWNER = 1001n;
const SPENDER = 1002n;
const ALIASED = 1003n;
const ED_ACCOUNT = 1004n;
const CONTRACT = 1005n;
const TOKEN_SCHEDULE = 1006n;
const DONE_SCHEDULE = 1007n;
/** A schedule whose admin key is Key { contractID { contractNum: 1005 } }, the contract's. */
const ADMINED_SCHEDULE = 1008n;
const CONTRACT_KEY = Buffer.from('0a0318ed07', 'hex');
const EC_ACCOUNT = 1009n;

const textField = (number: number, value: string) => messageField(number, [...Buffer.from(value)]);
const accountId = (num: bigint) => varintField(3, num);
/** A SchedulableTransactionBody scheduling a fungible TokenCreate with a fixed fee of 7 ℏ to the spender. */
const SCHEDULED_TOKEN_CREATE = Buffer.from(
  messageField(22, [
    ...textField(1, 'Planned'),
    ...textField(2, 'PLN'),
    ...varintField(3, 3n),
    ...varintField(4, 500n),
    ...messageField(5, accountId(OWNER)),
    ...messageField(21, [...messageField(1, varintField(1, 7n)), ...messageField(3, accountId(SPENDER))]),
  ]),
);
/** A SchedulableTransactionBody scheduling a CryptoTransfer (field 9) with no transfers. */
const SCHEDULED_TRANSFER = Buffer.from(messageField(9, []));
const RATE_FILE = 112n;

const ecdsaKey = secp256k1.utils.randomSecretKey();
const ALIAS = keccak_256(secp256k1.getPublicKey(ecdsaKey, false).subarray(1)).subarray(12);
const edKey = ed25519.utils.randomSecretKey();
const ED_PUBLIC = ed25519.getPublicKey(edKey);

const past = ledgerBlock(10n, GENESIS + 100n * SECOND, { historical: true });
const latest = ledgerBlock(20n, GENESIS + 200n * SECOND, { hash: `${'c3d4'.repeat(16)}${'ee'.repeat(16)}` });
const FAR = Number(GENESIS / SECOND) + 86_400;

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [past, latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, OWNER, GENESIS);
  await insertEntity(sql, SPENDER, GENESIS);
  await insertEntity(sql, ALIASED, GENESIS, { evm_address: Buffer.from(ALIAS) });
  await insertEntity(sql, ED_ACCOUNT, GENESIS, { key: Buffer.concat([Buffer.from('1220', 'hex'), ED_PUBLIC]) });
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT' });
  await insertEntity(sql, EC_ACCOUNT, GENESIS, {
    key: Buffer.concat([Buffer.from('3a21', 'hex'), secp256k1.getPublicKey(ecdsaKey, true)]),
  });
  for (const [id, body, executed, key] of [
    [TOKEN_SCHEDULE, SCHEDULED_TOKEN_CREATE, null, null],
    [DONE_SCHEDULE, SCHEDULED_TRANSFER, GENESIS + 2n * SECOND, null],
    [ADMINED_SCHEDULE, SCHEDULED_TRANSFER, null, CONTRACT_KEY],
  ] as const) {
    await insertEntity(sql, id, GENESIS, { type: 'SCHEDULE', key });
    await insertRow(sql, 'schedule', {
      schedule_id: id,
      consensus_timestamp: GENESIS + SECOND,
      creator_account_id: OWNER,
      payer_account_id: OWNER,
      transaction_body: body,
      executed_timestamp: executed,
    });
  }
  await insertCryptoAllowance(sql, { owner: OWNER, spender: SPENDER, amount: 75, from: GENESIS });
  // 1 ℏ = 12 ¢ before block 10; 1 ℏ = 10 ¢ from a later update on.
  await insertFileData(sql, {
    consensus_timestamp: GENESIS + SECOND,
    entity_id: RATE_FILE,
    file_data: exchangeRateSetBytes({ hbars: 1, cents: 12, expiration: FAR }, { hbars: 1, cents: 15, expiration: FAR }),
    transaction_type: FILE_CREATE,
  });
  await insertFileData(sql, {
    consensus_timestamp: GENESIS + 150n * SECOND,
    entity_id: RATE_FILE,
    file_data: exchangeRateSetBytes({ hbars: 1, cents: 10, expiration: FAR }, { hbars: 1, cents: 15, expiration: FAR }),
  });
});

const evmAt = (block: BlockContext) =>
  systemEvmAt(ledger.db, block, [{ kind: 'ACCOUNT', address: longZeroAddress(OWNER) }]);

const system = (num: bigint) => longZeroAddress(num);

describe('the exchange rate system contract 0x168', () => {
  it('converts 100 tinycents to tinybars at the current rate for 100 gas', async () => {
    const { call } = await evmAt(latest);
    const result = await call(system(0x168n), calldata('tinycentsToTinybars(uint256)', encode(int(100n))));
    expect(returned(result).uint(0)).toBe(10n);
    expect(result.executionGasUsed).toBe(EXCHANGE_RATE_GAS);
  });

  it('converts tinybars to tinycents at the rate in force at a historical block', async () => {
    const { call } = await evmAt(past);
    const result = await call(system(0x168n), calldata('tinybarsToTinycents(uint256)', encode(int(100n))));
    expect(returned(result).uint(0)).toBe(1200n);
  });

  it('fails a call without calldata or with an unknown selector', async () => {
    const { call } = await evmAt(latest);
    expect((await call(system(0x168n), new Uint8Array(0))).exceptionError).toBeDefined();
    expect((await call(system(0x168n), calldata('rate()'))).exceptionError).toBeDefined();
  });
});

describe('the PRNG system contract 0x169', () => {
  it('answers the first 32 bytes of the block hash as the seed', async () => {
    const { call } = await evmAt(latest);
    const result = await call(system(0x169n), calldata('getPseudorandomSeed()'));
    expect(Buffer.from(returned(result).uint(0).toString(16).padStart(64, '0'), 'hex')).toEqual(
      Buffer.from(latest.hash.slice(0, 64), 'hex'),
    );
    expect(result.executionGasUsed).toBe(PRNG_GAS);
  });

  it('fails a call without calldata', async () => {
    const { call } = await evmAt(latest);
    expect((await call(system(0x169n), new Uint8Array(0))).exceptionError).toBeDefined();
  });
});

describe('the account service system contract 0x16a', () => {
  const has = system(0x16an);

  it('answers hbarAllowance from crypto_allowance, directly and through the account’s redirect proxy', async () => {
    const { call } = await evmAt(latest);
    const owner = encode(address(longZeroAddress(OWNER)));
    const spender = encode(address(longZeroAddress(SPENDER)));
    const direct = await call(has, calldata('hbarAllowance(address,address)', owner, spender));
    expect(direct.executionGasUsed).toBe(VIEW_GAS);
    const args = returned(direct);
    expect([args.int(0), args.int(1)]).toEqual([22n, 75n]);
    const redirected = returned(await call(longZeroAddress(OWNER), calldata('hbarAllowance(address)', spender)));
    expect([redirected.int(0), redirected.int(1)]).toEqual([22n, 75n]);
  });

  it('answers an account’s EVM address and the account of an EVM address', async () => {
    const { call } = await evmAt(latest);
    const alias = returned(
      await call(has, calldata('getEvmAddressAlias(address)', encode(address(longZeroAddress(ALIASED))))),
    );
    expect([alias.int(0), alias.address(1)]).toEqual([22n, new Uint8Array(ALIAS)]);
    const none = returned(
      await call(has, calldata('getEvmAddressAlias(address)', encode(address(longZeroAddress(OWNER))))),
    );
    expect(none.int(0)).toBe(15n);
    const num = returned(await call(has, calldata('getHederaAccountNumAlias(address)', encode(address(ALIAS)))));
    expect([num.int(0), num.address(1)]).toEqual([22n, longZeroAddress(ALIASED)]);
  });

  it('answers isValidAlias for an existing account’s address and not for an unknown one', async () => {
    const { call } = await evmAt(latest);
    expect(returned(await call(has, calldata('isValidAlias(address)', encode(address(ALIAS))))).bool(0)).toBe(true);
    const unknown = encode(address(new Uint8Array(20).fill(0x42)));
    expect(returned(await call(has, calldata('isValidAlias(address)', unknown))).bool(0)).toBe(false);
  });

  it('verifies an ECDSA signature against the account’s EVM address with isAuthorizedRaw', async () => {
    const { call } = await evmAt(latest);
    const hash = keccak_256(new TextEncoder().encode('hello'));
    const compact = secp256k1.sign(hash, ecdsaKey, { prehash: false });
    const publicKey = secp256k1.getPublicKey(ecdsaKey, false);
    const signature = secp256k1.Signature.fromBytes(compact, 'compact');
    const bit = [0, 1].find((b) =>
      Buffer.from(signature.addRecoveryBit(b).recoverPublicKey(hash).toBytes(false)).equals(Buffer.from(publicKey)),
    );
    const withV = new Uint8Array([...compact, 27 + (bit ?? 0)]);
    const authorize = (message: Uint8Array) =>
      call(has, calldata('isAuthorizedRaw(address,bytes,bytes)', encode(address(ALIAS), bytes(message), bytes(withV))));
    const valid = await authorize(hash);
    expect(returned(valid).bool(0)).toBe(true);
    expect(valid.executionGasUsed).toBe(3000n);
    expect(returned(await authorize(keccak_256(new Uint8Array([1])))).bool(0)).toBe(false);
  });

  it('verifies an ED25519 signature against the account’s key with isAuthorizedRaw', async () => {
    const { call } = await evmAt(latest);
    const message = new TextEncoder().encode('a message');
    const signature = ed25519.sign(message, edKey);
    const authorize = (sig: Uint8Array) =>
      call(
        has,
        calldata(
          'isAuthorizedRaw(address,bytes,bytes)',
          encode(address(longZeroAddress(ED_ACCOUNT)), bytes(message), bytes(sig)),
        ),
      );
    expect(returned(await authorize(signature)).bool(0)).toBe(true);
    const tampered = signature.slice();
    tampered[0] = (tampered[0] ?? 0) ^ 1;
    expect(returned(await authorize(tampered)).bool(0)).toBe(false);
  });

  it('reverts isAuthorizedRaw for a signature of neither length', async () => {
    const { call } = await evmAt(latest);
    const result = await call(
      has,
      calldata(
        'isAuthorizedRaw(address,bytes,bytes)',
        encode(address(ALIAS), bytes(new Uint8Array(32)), bytes(new Uint8Array(10))),
      ),
    );
    expect(result.exceptionError?.error).toBe(EVMError.errorMessages.REVERT);
    expect(Buffer.from(result.returnValue).toString()).toBe('INVALID_TRANSACTION_BODY');
  });

  it('approves hbar for the sender as owner with hbarApprove, for the gas of a CryptoApproveAllowance', async () => {
    const { call } = await evmAt(latest);
    const approve = calldata(
      'hbarApprove(address,address,int256)',
      encode(address(longZeroAddress(OWNER)), address(longZeroAddress(SPENDER)), int(5n)),
    );
    const result = await call(has, approve, { caller: longZeroAddress(OWNER) });
    expect(returned(result).int(0)).toBe(22n);
    expect(result.executionGasUsed).toBe(canonicalGas('APPROVE'));
    const refused = await call(has, approve, { caller: longZeroAddress(SPENDER) });
    expect(refused.exceptionError?.error).toBe(EVMError.errorMessages.REVERT);
    expect(new AbiArgs(refused.returnValue).uint(0)).toBe(7n);
  });

  /** A SignatureMap with one pair: the key's first four bytes and the signature in field `field`. */
  const signatureMap = (publicKey: Uint8Array, field: number, signature: Uint8Array) => {
    const pair = Buffer.concat([
      Buffer.from([0x0a, 4]),
      publicKey.subarray(0, 4),
      Buffer.from([(field << 3) | 2, signature.length]),
      signature,
    ]);
    return Buffer.concat([Buffer.from([0x0a, pair.length]), pair]);
  };
  const isAuthorized = (account: bigint, message: Uint8Array, map: Uint8Array) =>
    calldata(
      'isAuthorized(address,bytes,bytes)',
      encode(address(longZeroAddress(account)), bytes(message), bytes(map)),
    );

  it('checks a SignatureMap against an account’s ED25519 or ECDSA key with isAuthorized, priced per key', async () => {
    const { call } = await evmAt(latest);
    const message = Buffer.from('hello hedera');
    const ed = await call(
      has,
      isAuthorized(ED_ACCOUNT, message, signatureMap(ED_PUBLIC, 3, ed25519.sign(message, edKey))),
    );
    expect([returned(ed).int(0), returned(ed).bool(1)]).toEqual([22n, true]);
    expect(ed.executionGasUsed).toBe(1_500_000n);
    const compressed = secp256k1.getPublicKey(ecdsaKey, true);
    const ecSignature = secp256k1.sign(keccak_256(message), ecdsaKey, { prehash: false });
    const ec = await call(has, isAuthorized(EC_ACCOUNT, message, signatureMap(compressed, 6, ecSignature)));
    expect([returned(ec).int(0), returned(ec).bool(1)]).toEqual([22n, true]);
    expect(ec.executionGasUsed).toBe(3000n);
    const other = await call(
      has,
      isAuthorized(EC_ACCOUNT, Buffer.from('other'), signatureMap(compressed, 6, ecSignature)),
    );
    expect(returned(other).bool(1)).toBe(false);
  });

  it('answers isAuthorized for an unknown account with INVALID_ACCOUNT_ID and false, for all the gas', async () => {
    const { call } = await evmAt(latest);
    const result = await call(has, isAuthorized(4242n, Buffer.from('m'), Buffer.alloc(0)), { gas: 90_000n });
    expect([returned(result).int(0), returned(result).bool(1)]).toEqual([
      BigInt(responseCodeByName('INVALID_ACCOUNT_ID') ?? -1),
      false,
    ]);
    expect(result.executionGasUsed).toBe(90_000n);
  });

  it('answers hbarAllowance with an approval made earlier in the same run', async () => {
    const system = await evmAt(latest);
    await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
    const pair = encode(address(longZeroAddress(CONTRACT)), address(longZeroAddress(SPENDER)));
    const result = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls(
        { to: has, data: calldata('hbarApprove(address,address,int256)', pair, encode(int(9n))) },
        { to: has, data: calldata('hbarAllowance(address,address)', pair) },
      ),
    );
    const args = returned(result);
    expect([args.int(0), args.int(1)]).toEqual([22n, 9n]);
  });
});

describe('the schedule service 0x16b', () => {
  const hss = system(0x16bn);
  const scheduleArg = (id: bigint) => encode(address(longZeroAddress(id)));

  it('answers the token a scheduled TokenCreate would create', async () => {
    const { call } = await evmAt(latest);
    const result = await call(
      hss,
      calldata('getScheduledCreateFungibleTokenInfo(address)', scheduleArg(TOKEN_SCHEDULE)),
    );
    expect(result.executionGasUsed).toBe(VIEW_GAS);
    const args = returned(result);
    expect(args.int(0)).toBe(22n);
    const info = args.tuple(1);
    const tokenInfo = info.tuple(0);
    const hederaToken = tokenInfo.tuple(0);
    expect(new TextDecoder().decode(hederaToken.bytes(0))).toBe('Planned');
    expect(hederaToken.address(2)).toEqual(longZeroAddress(OWNER));
    expect([tokenInfo.int(1), info.int(1)]).toEqual([500n, 3n]);
    const fixed = tokenInfo.array(5);
    expect([fixed.length, fixed.items.int(0), fixed.items.address(4)]).toEqual([1, 7n, longZeroAddress(SPENDER)]);
  });

  it('reverts for a schedule of another token type, of no TokenCreate, and for no schedule', async () => {
    const { call } = await evmAt(latest);
    const nft = await call(
      hss,
      calldata('getScheduledCreateNonFungibleTokenInfo(address)', scheduleArg(TOKEN_SCHEDULE)),
    );
    expect(new TextDecoder().decode(nft.returnValue)).toBe('INVALID_SCHEDULE_ID');
    const other = await call(hss, calldata('getScheduledCreateFungibleTokenInfo(address)', scheduleArg(DONE_SCHEDULE)));
    expect(new TextDecoder().decode(other.returnValue)).toBe('INVALID_SCHEDULE_ID');
    const none = await call(hss, calldata('getScheduledCreateFungibleTokenInfo(address)', scheduleArg(4242n)));
    expect(new TextDecoder().decode(none.returnValue)).toBe('RECORD_NOT_FOUND');
  });

  it('signs a live schedule for the ScheduleSign gas, and answers an executed one’s status', async () => {
    const { call } = await evmAt(latest);
    // The caller (0.0.2) holds none of the keys the TokenCreate needs (its payer's and treasury's).
    const live = await call(hss, calldata('authorizeSchedule(address)', scheduleArg(TOKEN_SCHEDULE)));
    expect(returned(live).int(0)).toBe(BigInt(responseCodeByName('NO_NEW_VALID_SIGNATURES') ?? -1));
    expect(live.executionGasUsed).toBe(canonicalGas('SCHEDULE_SIGN'));
    const done = returned(await call(hss, calldata('authorizeSchedule(address)', scheduleArg(DONE_SCHEDULE))));
    expect(done.int(0)).toBe(BigInt(responseCodeByName('SCHEDULE_ALREADY_EXECUTED') ?? 0));
    const missing = await call(hss, calldata('authorizeSchedule(address)', scheduleArg(4242n)), { gas: 50_000n });
    expect(new TextDecoder().decode(missing.returnValue)).toBe('INVALID_SCHEDULE_ID');
    expect(missing.executionGasUsed).toBe(50_000n);
  });

  it('signs a schedule with signSchedule(address,bytes), and halts on a SignatureMap that does not parse', async () => {
    const { call } = await evmAt(latest);
    const sign = (map: Uint8Array) =>
      calldata('signSchedule(address,bytes)', encode(address(longZeroAddress(TOKEN_SCHEDULE)), bytes(map)));
    const signed = await call(hss, sign(new Uint8Array()));
    expect(returned(signed).int(0)).toBe(BigInt(responseCodeByName('NO_NEW_VALID_SIGNATURES') ?? -1));
    expect(signed.executionGasUsed).toBe(canonicalGas('SCHEDULE_SIGN'));
    const malformed = await call(hss, sign(new Uint8Array([0x0a, 0x05, 0x0a])), { gas: 60_000n });
    expect(malformed.exceptionError).toBeDefined();
    expect(malformed.executionGasUsed).toBe(60_000n);
  });

  it('deletes a schedule whose admin key the call carries, which a later ScheduleSign of the run sees', async () => {
    const system = await evmAt(latest);
    const remove = calldata('deleteSchedule(address)', scheduleArg(ADMINED_SCHEDULE));
    const result = await system.call(hss, remove, { caller: longZeroAddress(CONTRACT) });
    expect(returned(result).int(0)).toBe(BigInt(responseCodeByName('SUCCESS') ?? -1));
    expect(result.executionGasUsed).toBe(canonicalGas('SCHEDULE_DELETE'));
    await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
    const signed = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls(
        { to: hss, data: remove },
        { to: hss, data: calldata('authorizeSchedule(address)', scheduleArg(ADMINED_SCHEDULE)) },
      ),
    );
    expect(returned(signed).int(0)).toBe(BigInt(responseCodeByName('SCHEDULE_ALREADY_DELETED') ?? -1));
  });

  it('refuses to delete a schedule without an admin key, or for a caller its admin key does not name', async () => {
    const { call } = await evmAt(latest);
    const status = async (id: bigint, caller: bigint) =>
      returned(
        await call(hss, calldata('deleteSchedule(address)', scheduleArg(id)), { caller: longZeroAddress(caller) }),
      ).int(0);
    expect(await status(TOKEN_SCHEDULE, CONTRACT)).toBe(BigInt(responseCodeByName('SCHEDULE_IS_IMMUTABLE') ?? -1));
    expect(await status(ADMINED_SCHEDULE, OWNER)).toBe(
      BigInt(responseCodeByName('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE') ?? -1),
    );
    expect(await status(SPENDER, CONTRACT)).toBe(BigInt(responseCodeByName('INVALID_SCHEDULE_ID') ?? -1));
  });

  it('succeeds with no output and no gas for a selector the schedule service does not have', async () => {
    const { call } = await evmAt(latest);
    const result = await call(hss, calldata('cancelSchedule(address)', scheduleArg(TOKEN_SCHEDULE)));
    expect([result.exceptionError, result.returnValue.length, result.executionGasUsed]).toEqual([undefined, 0, 0n]);
  });
});
