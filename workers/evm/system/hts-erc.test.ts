import { describe, expect, it } from 'vitest';
import { countingClient, TESTNET_SETTINGS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import {
  ALIAS,
  ALIASED,
  FUNGIBLE,
  HOLDER,
  latest,
  NFT,
  past,
  returned,
  revertText,
  SPENDER,
  seedTokenLedger,
  systemEvmAt,
  TOKEN_REDIRECTS,
} from '../../../test/harness/factories-evm-system.ts';
import { longZeroAddress } from '../addresses.ts';
import { SessionLedger } from '../ledger-reader.ts';
import type { BlockContext } from '../types.ts';
import type { AbiArgs } from './abi.ts';
import { addressArg, calldata, systemEvm, word } from './testing/system-evm.ts';

const ledger = useEvmLedger(seedTokenLedger);

const evmAt = (block: BlockContext) => systemEvmAt(ledger.db, block);

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

  it('answers NFT ownership, balance and supply at a historical block from nft_history', async () => {
    const { call } = await evmAt(past);
    const nft = longZeroAddress(NFT);
    expect(returned(await call(nft, calldata('ownerOf(uint256)', word(2n)))).address(0)).toEqual(
      longZeroAddress(HOLDER),
    );
    expect(returned(await call(nft, calldata('ownerOf(uint256)', word(3n)))).address(0)).toEqual(
      longZeroAddress(HOLDER),
    );
    const holder = addressArg(longZeroAddress(HOLDER));
    expect(returned(await call(nft, calldata('balanceOf(address)', holder))).uint(0)).toBe(3n);
    expect(returned(await call(nft, calldata('totalSupply()'))).uint(0)).toBe(3n);
    const latestEvm = await evmAt(latest);
    expect(returned(await latestEvm.call(nft, calldata('balanceOf(address)', holder))).uint(0)).toBe(1n);
  });

  it('reads nothing again when a session runs the same call a second time, as an estimate does', async () => {
    const counting = countingClient(ledger.db);
    const reader = new SessionLedger(counting, past, TESTNET_SETTINGS);
    const balanceOf = calldata('balanceOf(address)', addressArg(longZeroAddress(HOLDER)));
    const first = await (await systemEvm(reader, TOKEN_REDIRECTS)).call(longZeroAddress(FUNGIBLE), balanceOf);
    const afterFirst = counting.statements;
    const second = await (await systemEvm(reader, TOKEN_REDIRECTS)).call(longZeroAddress(FUNGIBLE), balanceOf);
    expect(afterFirst).toBeGreaterThan(0);
    expect(counting.statements).toBe(afterFirst);
    expect(returned(second).uint(0)).toBe(returned(first).uint(0));
  });

  it('succeeds with no output for a function the token service does not have, such as mint(address,uint256)', async () => {
    const { call } = await evmAt(latest);
    const mint = calldata('mint(address,uint256)', word(1n), word(1n));
    const result = await call(longZeroAddress(FUNGIBLE), mint);
    expect([result.exceptionError, result.returnValue.length]).toEqual([undefined, 0]);
  });
});
