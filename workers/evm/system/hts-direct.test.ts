import { describe, expect, it } from 'vitest';
import { GENESIS, SECOND, useEvmLedger } from '../../../test/harness/evm-session.ts';
import {
  ADMIN_KEY,
  ALIAS,
  FUNGIBLE,
  HOLDER,
  latest,
  NFT,
  returned,
  SPENDER,
  seedTokenLedger,
  systemEvmAt,
} from '../../../test/harness/factories-evm-system.ts';
import { longZeroAddress } from '../addresses.ts';

const HTS = longZeroAddress(0x167n);

import { type BlockContext, EvmRequestError } from '../types.ts';
import { VIEW_GAS } from './results.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';

const ledger = useEvmLedger(seedTokenLedger);

const evmAt = (block: BlockContext) => systemEvmAt(ledger.db, block);

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
    // defaultKycStatus is the stored KYC status being GRANTED, as the reference reads it; this token has none.
    expect([info.int(1), info.bool(2), info.bool(3), info.bool(4)]).toEqual([1000n, false, false, false]);
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
    expect([info.array(6).length, info.array(7).length]).toEqual([1, 0]);
    expect(new TextDecoder().decode(info.bytes(8))).toBe('0x01');
  });

  it('answers getFungibleTokenInfo as the TokenInfo and the decimals', async () => {
    const { call } = await evmAt(latest);
    const fungible = addressArg(longZeroAddress(FUNGIBLE));
    const result = returned(await call(HTS, calldata('getFungibleTokenInfo(address)', fungible)));
    const info = result.tuple(1);
    expect(new TextDecoder().decode(info.tuple(0).tuple(0).bytes(1))).toBe('GLD');
    expect([result.int(0), info.int(1)]).toEqual([22n, 2n]);
  });

  it('answers getTokenCustomFees with the fractional and the royalty fee tuples', async () => {
    const { call } = await evmAt(latest);
    const fungible = returned(
      await call(HTS, calldata('getTokenCustomFees(address)', addressArg(longZeroAddress(FUNGIBLE)))),
    );
    expect([fungible.int(0), fungible.array(1).length, fungible.array(2).length]).toEqual([22n, 1, 1]);
    const fractional = fungible.array(2).items;
    expect([
      fractional.int(0),
      fractional.int(1),
      fractional.int(2),
      fractional.int(3),
      fractional.bool(4),
      fractional.address(5),
    ]).toEqual([1n, 20n, 2n, 9n, true, longZeroAddress(SPENDER)]);
    const nft = returned(await call(HTS, calldata('getTokenCustomFees(address)', addressArg(longZeroAddress(NFT)))));
    const royalty = nft.array(3);
    expect(royalty.length).toBe(1);
    const fee = royalty.items;
    expect([fee.int(0), fee.int(1), fee.int(2), fee.address(3), fee.bool(4), fee.address(5)]).toEqual([
      1n,
      10n,
      3n,
      longZeroAddress(FUNGIBLE),
      false,
      longZeroAddress(HOLDER),
    ]);
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

  it('reverts a failed view with its status in a static frame, and answers the code in a plain call', async () => {
    const system = await evmAt(latest);
    // calldatacopy(0, 0, calldatasize); <call>(gas, 0x167, [0,] 0, calldatasize, 0, 0); return the return data
    const forwarder = (call: string) =>
      new Uint8Array(
        Buffer.concat([
          Buffer.from(`365f5f375f5f365f${call === 'f1' ? '5f' : ''}73`, 'hex'),
          Buffer.from(HTS),
          Buffer.from(`5a${call}503d5f5f3e3d5ff3`, 'hex'),
        ]),
      );
    const viewer = longZeroAddress(6666n);
    const caller = longZeroAddress(7777n);
    await system.deploy(viewer, forwarder('fa'));
    await system.deploy(caller, forwarder('f1'));
    const notToken = calldata('getTokenType(address)', addressArg(longZeroAddress(HOLDER)));
    const reverted = await system.call(viewer, notToken);
    expect(Buffer.from(reverted.returnValue).toString()).toBe('INVALID_TOKEN_ID');
    const answered = returned(await system.call(caller, notToken));
    expect([answered.int(0), answered.int(1)]).toEqual([167n, 0n]);
  });

  // The consensus node answers a selector none of its translators claims `successResult(Bytes.EMPTY, 0)`.
  it('succeeds with no output and no gas for a selector the token service does not have', async () => {
    const { call } = await evmAt(latest);
    const unknown = calldata('burnAll(address)', addressArg(longZeroAddress(FUNGIBLE)));
    const result = await call(HTS, unknown, { gas: 100_000n });
    expect([result.exceptionError, result.returnValue.length, result.executionGasUsed]).toEqual([undefined, 0, 0n]);
  });

  it('succeeds for such a selector called through a contract, the contract seeing a successful call', async () => {
    const system = await evmAt(latest);
    // calldatacopy(0, 0, calldatasize); ok = call(gas, 0x167, 0, 0, calldatasize, 0, 0); return (ok, returndatasize)
    const caller = longZeroAddress(7778n);
    const code = Buffer.concat([
      Buffer.from('365f5f375f5f365f5f73', 'hex'),
      Buffer.from(HTS),
      Buffer.from('5af15f523d60205260405ff3', 'hex'),
    ]);
    await system.deploy(caller, new Uint8Array(code));
    const result = await system.call(caller, calldata('burnAll(address)', addressArg(longZeroAddress(FUNGIBLE))));
    expect(result.exceptionError).toBeUndefined();
    const answer = returned(result);
    expect([answer.uint(0), answer.uint(1)]).toEqual([1n, 0n]);
  });

  it('still answers 501 for a function the node has and this port does not run', async () => {
    const { call } = await evmAt(latest);
    const token =
      '(string,string,address,string,bool,uint32,bool,(uint256,(bool,address,bytes,bytes,address))[],(uint32,address,uint32))';
    const v1 = `createNonFungibleTokenWithCustomFees(${token},(uint32,address,bool,bool,address)[],(uint32,uint32,uint32,address,bool,address)[])`;
    await expect(call(HTS, calldata(v1))).rejects.toEqual(new EvmRequestError(501, 'Not Implemented'));
  });
});
