import { describe, expect, it } from 'vitest';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { FUNGIBLE, HOLDER, NFT, returned } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  CONTRACT_KEY,
  HTS,
  RECEIVER,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { type AbiValue, address, array, bool, encode, int, tuple } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { canonicalGas } from './hts-gas.ts';
import { addressArg, calldata } from './testing/system-evm.ts';

/** A fungible token and an NFT whose fee schedule key names the contract, their treasury. */
const FEED = 2300n;
const FEED_NFT = 2301n;

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  for (const [id, type] of [
    [FEED, 'FUNGIBLE_COMMON'],
    [FEED_NFT, 'NON_FUNGIBLE_UNIQUE'],
  ] as const) {
    await insertToken(sql, id, GENESIS, {
      type,
      treasury_account_id: CONTRACT,
      fee_schedule_key: CONTRACT_KEY,
      supply_key: CONTRACT_KEY,
    });
    await insertTokenAccount(sql, { account_id: CONTRACT, token_id: id, balance: 0 });
  }
});

const at = (id: bigint) => address(longZeroAddress(id));
const hbarFee = (amount: bigint, collector: bigint) =>
  tuple(int(amount), address(ZERO_ADDRESS), bool(true), bool(false), at(collector));
const tokenFee = (amount: bigint, token: bigint, collector: bigint) =>
  tuple(int(amount), at(token), bool(false), bool(false), at(collector));
const fractional = (collector: bigint, minimum = 1n, maximum = 10n) =>
  tuple(int(1n), int(10n), int(minimum), int(maximum), bool(false), at(collector));
const royalty = (fallback: bigint, token: bigint, collector: bigint) =>
  tuple(int(1n), int(20n), int(fallback), at(token), bool(false), at(collector));

const FIXED = '(int64,address,bool,bool,address)[]';
const updateFungible = (token: bigint, fixed: AbiValue[], fractions: AbiValue[]) =>
  calldata(
    `updateFungibleTokenCustomFees(address,${FIXED},(int64,int64,int64,int64,bool,address)[])`,
    encode(at(token), array(fixed), array(fractions)),
  );
const updateNft = (token: bigint, fixed: AbiValue[], royalties: AbiValue[]) =>
  calldata(
    `updateNonFungibleTokenCustomFees(address,${FIXED},(int64,int64,int64,address,bool,address)[])`,
    encode(at(token), array(fixed), array(royalties)),
  );

const codeOf = (result: Parameters<typeof returned>[0]) => responseCodeName(Number(returned(result).int(0)));
const contract = { caller: longZeroAddress(CONTRACT) };

describe('custom fee updates on 0x167', () => {
  it('replaces a fungible token’s fees, which getTokenCustomFees then answers', async () => {
    const { both, call } = await writesEvm(ledger.db);
    const update = updateFungible(FEED, [hbarFee(5n, RECEIVER)], [fractional(CONTRACT)]);
    const result = await call(HTS, update, contract);
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(canonicalGas('UPDATE_TOKEN_CUSTOM_FEES'));
    const fees = returned(
      await both(
        { to: HTS, data: update },
        { to: HTS, data: calldata('getTokenCustomFees(address)', addressArg(longZeroAddress(FEED))) },
      ),
    );
    expect([fees.array(1).length, fees.array(2).length, fees.array(3).length]).toEqual([1, 1, 0]);
    expect([fees.array(1).items.int(0), fees.array(1).items.address(4)]).toEqual([5n, longZeroAddress(RECEIVER)]);
  });

  it('sets an NFT’s royalty with a fallback in a fungible token the collector holds', async () => {
    const { call } = await writesEvm(ledger.db);
    const result = await call(HTS, updateNft(FEED_NFT, [], [royalty(3n, FUNGIBLE, RECEIVER)]), contract);
    expect(codeOf(result)).toBe('SUCCESS');
  });

  it('answers the handler’s and the validator’s statuses', async () => {
    const { call } = await writesEvm(ledger.db);
    const status = async (data: Uint8Array, caller = CONTRACT) =>
      codeOf(await call(HTS, data, { caller: longZeroAddress(caller) }));
    expect(await status(updateFungible(FUNGIBLE, [], []))).toBe('TOKEN_HAS_NO_FEE_SCHEDULE_KEY');
    expect(await status(updateFungible(FEED, [], []), HOLDER)).toBe('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
    expect(await status(updateFungible(FEED, [hbarFee(0n, RECEIVER)], []))).toBe('CUSTOM_FEE_MUST_BE_POSITIVE');
    expect(await status(updateFungible(FEED, [tokenFee(1n, NFT, RECEIVER)], []))).toBe(
      'CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON',
    );
    expect(await status(updateFungible(FEED, [hbarFee(1n, 9999n)], []))).toBe('INVALID_CUSTOM_FEE_COLLECTOR');
    expect(await status(updateFungible(FEED, [], [fractional(RECEIVER)]))).toBe(
      'TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR',
    );
    expect(await status(updateFungible(FEED, [], [fractional(CONTRACT, 5n, 2n)]))).toBe(
      'FRACTIONAL_FEE_MAX_AMOUNT_LESS_THAN_MIN_AMOUNT',
    );
    expect(await status(updateFungible(FEED_NFT, [], [fractional(CONTRACT)]))).toBe(
      'CUSTOM_FRACTIONAL_FEE_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON',
    );
    expect(await status(updateNft(FEED, [], [royalty(0n, FUNGIBLE, RECEIVER)]))).toBe(
      'CUSTOM_ROYALTY_FEE_ONLY_ALLOWED_FOR_NON_FUNGIBLE_UNIQUE',
    );
  });

  it('halts a call with more fees than tokens.maxCustomFeesAllowed', async () => {
    const { call } = await writesEvm(ledger.db);
    const eleven = Array.from({ length: 11 }, () => hbarFee(1n, RECEIVER));
    const result = await call(HTS, updateFungible(FEED, eleven, []), { ...contract, gas: 400_000n });
    expect(result.exceptionError).toBeDefined();
    expect(result.executionGasUsed).toBe(400_000n);
  });
});
