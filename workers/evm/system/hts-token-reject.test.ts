import { describe, expect, it } from 'vitest';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { ADMIN_KEY, FUNGIBLE, HOLDER, NFT, returned } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  HTS,
  MINTED,
  RECEIVER,
  redirect,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertEntity, insertNft, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, encode, int, tuple } from './abi.ts';
import { canonicalGas, rejectGas } from './hts-gas.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';

/** A serial of Art the contract holds. */
const HELD = 4n;
/** An account with an ED25519 key, which no call here carries. */
const KEYED = 2200n;

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertTokenAccount(sql, { account_id: CONTRACT, token_id: NFT, balance: 1 });
  await insertNft(sql, { token_id: NFT, serial_number: HELD, created_timestamp: GENESIS, account_id: CONTRACT });
  await insertEntity(sql, KEYED, GENESIS, { key: ADMIN_KEY });
});

const evm = () => writesEvm(ledger.db);
const contract = { caller: longZeroAddress(CONTRACT) };

const rejectTokens = (owner: bigint, fungible: bigint[], nfts: [bigint, bigint][]) =>
  calldata(
    'rejectTokens(address,address[],(address,int64)[])',
    encode(
      address(longZeroAddress(owner)),
      array(fungible.map((token) => address(longZeroAddress(token)))),
      array(nfts.map(([token, serial]) => tuple(address(longZeroAddress(token)), int(serial)))),
    ),
  );

const codeOf = (result: Parameters<typeof returned>[0]) => responseCodeName(Number(returned(result).int(0)));

describe('rejectTokens on 0x167', () => {
  it('sends the owner’s whole fungible balance back to the treasury, for one rejection’s gas', async () => {
    const { both, call } = await evm();
    const result = await call(HTS, rejectTokens(CONTRACT, [FUNGIBLE], []), contract);
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(rejectGas(1, 0));
    const treasury = await both(
      { to: HTS, data: rejectTokens(CONTRACT, [FUNGIBLE], []) },
      { to: longZeroAddress(FUNGIBLE), data: calldata('balanceOf(address)', addressArg(longZeroAddress(HOLDER))) },
    );
    expect(returned(treasury).uint(0)).toBe(800n);
  });

  it('sends a rejected serial to the treasury, priced per rejection', async () => {
    const { both, call } = await evm();
    const priced = await call(HTS, rejectTokens(CONTRACT, [FUNGIBLE], [[NFT, HELD]]), contract);
    expect(priced.executionGasUsed).toBe(rejectGas(1, 1));
    const owner = await both(
      { to: HTS, data: rejectTokens(CONTRACT, [], [[NFT, HELD]]) },
      { to: longZeroAddress(NFT), data: calldata('ownerOf(uint256)', word(HELD)) },
    );
    expect(returned(owner).address(0)).toEqual(longZeroAddress(HOLDER));
  });

  it('answers the handler’s statuses and keeps nothing of a failed rejection', async () => {
    const { call } = await evm();
    const status = async (data: Uint8Array) => codeOf(await call(HTS, data, contract));
    expect(await status(rejectTokens(CONTRACT, [], []))).toBe('EMPTY_TOKEN_REFERENCE_LIST');
    expect(await status(rejectTokens(CONTRACT, [FUNGIBLE, FUNGIBLE], []))).toBe('TOKEN_REFERENCE_REPEATED');
    expect(await status(rejectTokens(KEYED, [MINTED], []))).toBe('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
    expect(await status(rejectTokens(RECEIVER, [MINTED], []))).toBe('ACCOUNT_IS_IMMUTABLE');
    expect(await status(rejectTokens(CONTRACT, [MINTED], []))).toBe('ACCOUNT_IS_TREASURY');
    expect(await status(rejectTokens(CONTRACT, [], [[NFT, 1n]]))).toBe('INVALID_OWNER_ID');
    expect(await status(rejectTokens(CONTRACT, [], [[NFT, 99n]]))).toBe('INVALID_NFT_ID');
    expect(await status(rejectTokens(CONTRACT, [FUNGIBLE], [[NFT, 1n]]))).toBe('INVALID_OWNER_ID');
    const balance = await call(
      longZeroAddress(FUNGIBLE),
      calldata('balanceOf(address)', addressArg(longZeroAddress(CONTRACT))),
    );
    expect(returned(balance).uint(0)).toBe(100n);
  });

  it('halts a call with more rejections than ledger.tokenRejects.maxLen', async () => {
    const { call } = await evm();
    const eleven = Array.from({ length: 11 }, (_, i): [bigint, bigint] => [NFT, BigInt(i + 1)]);
    const result = await call(HTS, rejectTokens(CONTRACT, [], eleven), { ...contract, gas: 500_000n });
    expect(result.exceptionError).toBeDefined();
    expect(result.executionGasUsed).toBe(500_000n);
  });
});

describe('HRC-904 rejections through a token’s proxy', () => {
  it('rejects the caller’s balance with rejectTokenFT(), for a fungible rejection’s gas', async () => {
    const { call } = await evm();
    const result = await call(HTS, redirect(longZeroAddress(MINTED), calldata('rejectTokenFT()')), {
      caller: longZeroAddress(RECEIVER),
    });
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(canonicalGas('TOKEN_REJECT_FT'));
    const treasury = await call(HTS, redirect(longZeroAddress(MINTED), calldata('rejectTokenFT()')), contract);
    expect(codeOf(treasury)).toBe('ACCOUNT_IS_TREASURY');
  });

  it('rejects the caller’s serials with rejectTokenNFTs(int64[])', async () => {
    const { call } = await evm();
    const serials = (list: bigint[]) =>
      calldata('rejectTokenNFTs(int64[])', encode(array(list.map((serial) => int(serial)))));
    const result = await call(HTS, redirect(longZeroAddress(NFT), serials([HELD])), contract);
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(canonicalGas('TOKEN_REJECT_NFT'));
    expect(codeOf(await call(HTS, redirect(longZeroAddress(NFT), serials([1n])), contract))).toBe('INVALID_OWNER_ID');
  });
});
