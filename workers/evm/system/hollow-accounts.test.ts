import { describe, expect, it } from 'vitest';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { GENESIS, TESTNET_SETTINGS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { ALIASED, HOLDER, latest, NFT, returned } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  HTS,
  MINTED,
  redirect,
  revertCode,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { firstNewEntityNumber } from '../next-entity-id.ts';
import { address, array, encode, int, tuple } from './abi.ts';
import { canonicalGas, transferGas } from './hts-gas.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';

/** A deleted account, and a contract with an EVM address (as CREATE2 makes one). */
const DELETED = 2500n;
const FACTORY_MADE = 2501n;
const FACTORY_MADE_ADDRESS = Uint8Array.from({ length: 20 }, (_, i) => 0xc0 + i);

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertEntity(sql, DELETED, GENESIS, { deleted: true });
  await insertEntity(sql, FACTORY_MADE, GENESIS, { type: 'CONTRACT', evm_address: Buffer.from(FACTORY_MADE_ADDRESS) });
});
const evm = () => writesEvm(ledger.db);

const HAS = longZeroAddress(0x16an);
const minted = longZeroAddress(MINTED);
/** An EVM address no account of the ledger has. */
const FRESH = Uint8Array.from({ length: 20 }, (_, i) => 0xa0 + i);
const code = (name: string) => BigInt(responseCodeByName(name) ?? -1);
const transferMinted = (amount: bigint) => calldata('transfer(address,uint256)', addressArg(FRESH), word(amount));

describe('a transfer to an EVM address that names no account', () => {
  it('creates a hollow account with the next entity number, which later reads of the run see', async () => {
    const { both } = await evm();
    const next = await firstNewEntityNumber(ledger.db, latest, TESTNET_SETTINGS);
    const numAlias = await both(
      { to: minted, data: transferMinted(30n) },
      { to: HAS, data: calldata('getHederaAccountNumAlias(address)', addressArg(FRESH)) },
    );
    expect(returned(numAlias).int(0)).toBe(code('SUCCESS'));
    expect(returned(numAlias).address(1)).toEqual(longZeroAddress(next));
    const balance = await both(
      { to: minted, data: transferMinted(30n) },
      { to: minted, data: calldata('balanceOf(address)', addressArg(FRESH)) },
    );
    expect(returned(balance).uint(0)).toBe(30n);
  });

  it('charges a CryptoCreate and a CryptoUpdate on top of the transfer, and the association the token needs', async () => {
    const { call } = await evm();
    const result = await call(HTS, redirect(minted, transferMinted(30n)), { caller: longZeroAddress(CONTRACT) });
    expect(returned(result).bool(0)).toBe(true);
    const lazy = transferGas({ hbarAdjusts: 0, unitAdjusts: 2, nftExchanges: 0, customFees: false, lazyCreations: 1 });
    // $0.001 for the two adjustments, $0.05 + $0.00022 for the creation, as gas plus a fifth; then an association.
    expect(lazy).toBe(722_607n);
    expect(result.executionGasUsed).toBe(lazy + canonicalGas('ASSOCIATE'));
  });

  it('undoes the account of a transfer that fails, charging its creation all the same', async () => {
    const { both, call } = await evm();
    const failed = await call(HTS, redirect(minted, transferMinted(501n)), { caller: longZeroAddress(CONTRACT) });
    expect(revertCode(failed)).toBe('INSUFFICIENT_TOKEN_BALANCE');
    expect(failed.executionGasUsed).toBe(
      transferGas({ hbarAdjusts: 0, unitAdjusts: 2, nftExchanges: 0, customFees: false, lazyCreations: 1 }),
    );
    const valid = await both(
      {
        to: HTS,
        data: calldata(
          'transferToken(address,address,address,int64)',
          addressArg(minted),
          addressArg(longZeroAddress(CONTRACT)),
          addressArg(FRESH),
          word(501n),
        ),
      },
      { to: HAS, data: calldata('isValidAlias(address)', addressArg(FRESH)) },
    );
    expect(returned(valid).bool(0)).toBe(false);
  });

  it('creates the receiver of hbar sent with cryptoTransfer v2', async () => {
    const { both, call } = await evm();
    const hbar = tuple(
      array([
        tuple(address(longZeroAddress(CONTRACT)), int(-100n), int(0n)),
        tuple(address(FRESH), int(100n), int(0n)),
      ]),
    );
    const data = calldata(
      'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
      encode(hbar, array([])),
    );
    const result = await call(HTS, data, { caller: longZeroAddress(CONTRACT) });
    expect(returned(result).int(0)).toBe(code('SUCCESS'));
    expect(result.executionGasUsed).toBe(
      transferGas({ hbarAdjusts: 2, unitAdjusts: 0, nftExchanges: 0, customFees: false, lazyCreations: 1 }),
    );
    const valid = await both(
      { to: HTS, data },
      { to: HAS, data: calldata('isValidAlias(address)', addressArg(FRESH)) },
    );
    expect(returned(valid).bool(0)).toBe(true);
  });

  it('gives an NFT sent to it the new account as its owner', async () => {
    const { both } = await evm();
    const art = longZeroAddress(NFT);
    const owner = await both(
      {
        to: HTS,
        data: calldata(
          'transferNFT(address,address,address,int64)',
          addressArg(art),
          addressArg(longZeroAddress(HOLDER)),
          addressArg(FRESH),
          word(1n),
        ),
      },
      { to: art, data: calldata('ownerOf(uint256)', word(1n)) },
    );
    expect(returned(owner).address(0)).toEqual(FRESH);
  });
});

describe('a credit to a long-zero or the zero address that names no account', () => {
  const contract = { caller: longZeroAddress(CONTRACT) };
  const transferTokenTo = (from: Uint8Array, to: Uint8Array) =>
    calldata(
      'transferToken(address,address,address,int64)',
      addressArg(minted),
      addressArg(from),
      addressArg(to),
      word(5n),
    );
  const noCreation = transferGas({
    hbarAdjusts: 0,
    unitAdjusts: 2,
    nftExchanges: 0,
    customFees: false,
    lazyCreations: 0,
  });

  it.each([
    ['an unused long-zero address', longZeroAddress(4321n)],
    ['the zero address', new Uint8Array(20)],
    ['the long-zero form of a deleted account', longZeroAddress(DELETED)],
    ['the long-zero form of an account with an EVM address', longZeroAddress(ALIASED)],
    ['the long-zero form of a contract with an EVM address', longZeroAddress(FACTORY_MADE)],
  ])('answers INVALID_ALIAS_KEY for %s, pricing no account creation', async (_, to) => {
    const { call } = await evm();
    const result = await call(HTS, transferTokenTo(longZeroAddress(CONTRACT), to), contract);
    expect(returned(result).int(0)).toBe(code('INVALID_ALIAS_KEY'));
    expect(result.executionGasUsed).toBe(noCreation);
  });

  it('reverts a credit of units to a system account before the dispatch, whether or not the account exists', async () => {
    const { call } = await evm();
    const result = await call(HTS, transferTokenTo(longZeroAddress(CONTRACT), longZeroAddress(98n)), contract);
    expect(revertCode(result)).toBe('INVALID_RECEIVING_NODE_ACCOUNT');
    expect(result.executionGasUsed).toBe(noCreation);
  });

  it('reverts an ERC-20 transfer to one with INVALID_ALIAS_KEY', async () => {
    const { call } = await evm();
    const data = calldata('transfer(address,uint256)', addressArg(longZeroAddress(4321n)), word(5n));
    const result = await call(HTS, redirect(minted, data), contract);
    expect(revertCode(result)).toBe('INVALID_ALIAS_KEY');
  });

  it('answers INVALID_ACCOUNT_ID first when a debited account does not exist, as the node checks before handling', async () => {
    const { call } = await evm();
    const result = await call(HTS, transferTokenTo(longZeroAddress(4321n), new Uint8Array(20)), contract);
    expect(returned(result).int(0)).toBe(code('INVALID_ACCOUNT_ID'));
  });

  it('undoes the hollow account of an EVM address credited before it, which alone is priced', async () => {
    const { both, call } = await evm();
    const hbar = tuple(
      array([
        tuple(address(longZeroAddress(CONTRACT)), int(-100n), int(0n)),
        tuple(address(FRESH), int(50n), int(0n)),
        tuple(address(longZeroAddress(4321n)), int(50n), int(0n)),
      ]),
    );
    const data = calldata(
      'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
      encode(hbar, array([])),
    );
    const result = await call(HTS, data, contract);
    expect(returned(result).int(0)).toBe(code('INVALID_ALIAS_KEY'));
    expect(result.executionGasUsed).toBe(
      transferGas({ hbarAdjusts: 3, unitAdjusts: 0, nftExchanges: 0, customFees: false, lazyCreations: 1 }),
    );
    const valid = await both(
      { to: HTS, data },
      { to: HAS, data: calldata('isValidAlias(address)', addressArg(FRESH)) },
    );
    expect(returned(valid).bool(0)).toBe(false);
  });
});
