/**
 * TokenReject (HIP-904) in a call: `rejectTokens(owner, tokens, nfts)` on HTS 0x167 and, through a token's proxy,
 * HRC-904 `rejectTokenFT()` and `rejectTokenNFTs(serials)` for the caller (RejectTokensTranslator/Decoder,
 * TokenRejectHandler). The owner's whole balance of each fungible token and each named serial go back to the
 * token's treasury; the call answers the response code as an int64 and keeps nothing of a failed rejection. More
 * rejections than `ledger.tokenRejects.maxLen` fail in the decoder, before any dispatch, which halts the call.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { hexOfBytes } from '../../../db/bytea.ts';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import { type AbiArgs, AbiDecodeError, selectorOf } from './abi.ts';
import { signs } from './call-parties.ts';
import { accountAt, type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { canonicalGas, rejectGas } from './hts-gas.ts';
import { adjustTokenBalance, fail, pricedDispatch, usableToken } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';
import { isZeroAddress } from './token-structs.ts';

/** `ledger.tokenRejects.maxLen`. */
const MAX_REJECTIONS = 10;

/** A token reference: a fungible token (no serial) or one serial of an NFT. */
interface Rejection {
  readonly token: Uint8Array;
  readonly serial?: bigint;
}

function limited(rejections: Rejection[]): Rejection[] {
  if (rejections.length > MAX_REJECTIONS) throw new AbiDecodeError('TOKEN_REFERENCE_LIST_SIZE_LIMIT_EXCEEDED');
  return rejections;
}

function classicRejections(args: AbiArgs): Rejection[] {
  const fungible = args.array(1);
  const nfts = args.array(2);
  return limited([
    ...Array.from({ length: fungible.length }, (_, i) => ({ token: fungible.items.address(i) })),
    ...Array.from({ length: nfts.length }, (_, i) => ({
      token: nfts.items.address(i * 2),
      serial: nfts.items.int(i * 2 + 1, 64),
    })),
  ]);
}

/** The pure checks: a non-empty list without repeats, fungible tokens named, serials positive. */
function checkBody(rejections: readonly Rejection[]): void {
  if (rejections.length === 0) fail('EMPTY_TOKEN_REFERENCE_LIST');
  const seen = new Set<string>();
  for (const { token, serial } of rejections) {
    const key = `${hexOfBytes(token)}/${serial ?? ''}`;
    if (seen.has(key)) fail('TOKEN_REFERENCE_REPEATED');
    seen.add(key);
    if (serial === undefined && isZeroAddress(token)) fail('INVALID_TOKEN_ID');
    if (serial !== undefined && serial <= 0n) fail('INVALID_TOKEN_NFT_SERIAL_NUMBER');
  }
}

/** The owner must exist and sign; an owner without a key cannot (ACCOUNT_IS_IMMUTABLE). */
async function rejectingAccount(call: HtsCall, address: Uint8Array): Promise<EvmEntity> {
  const owner = (await accountAt(call, address)) ?? fail('INVALID_OWNER_ID');
  if (!(await signs(call, owner))) {
    fail(owner.key ? 'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE' : 'ACCOUNT_IS_IMMUTABLE');
  }
  if (owner.deleted) fail('ACCOUNT_DELETED');
  return owner;
}

async function reject(call: HtsCall, ownerAddress: Uint8Array, rejections: readonly Rejection[]): Promise<undefined> {
  checkBody(rejections);
  const owner = await rejectingAccount(call, ownerAddress);
  // Every rejection is checked before any moves, fungible ones first, as the handler collects its transfers.
  const fungibleMoves: { token: TokenState; amount: bigint }[] = [];
  for (const { token: address } of rejections.filter((rejection) => rejection.serial === undefined)) {
    const token = usableToken(await tokenAt(call, address));
    const row = await call.tokens.relationshipToWrite(owner.id, token);
    if (!row?.associated) fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    if (token.treasury === owner.id) fail('ACCOUNT_IS_TREASURY');
    const amount = BigInt(row?.balance ?? '0');
    if (amount <= 0n) fail('INSUFFICIENT_TOKEN_BALANCE');
    if (!token.fungible) fail('ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON');
    fungibleMoves.push({ token, amount });
  }
  const nftMoves: { token: TokenState; serial: bigint }[] = [];
  for (const { token: address, serial } of rejections) {
    if (serial === undefined) continue;
    const found = await tokenAt(call, address);
    const nft = found && !found.fungible ? await call.tokens.nft(found.id, serial) : undefined;
    if (!nft) return fail('INVALID_NFT_ID');
    const token = usableToken(found);
    if (token.treasury === owner.id) fail('ACCOUNT_IS_TREASURY');
    if (nft.account_id === null || BigInt(nft.account_id) !== owner.id) fail('INVALID_OWNER_ID');
    nftMoves.push({ token, serial });
  }
  for (const { token, amount } of fungibleMoves) {
    await adjustTokenBalance(call, owner.id, token, -amount);
    await adjustTokenBalance(call, token.treasury, token, amount);
  }
  for (const { token, serial } of nftMoves) {
    const nft = await call.tokens.nft(token.id, serial);
    await adjustTokenBalance(call, owner.id, token, -1n);
    await adjustTokenBalance(call, token.treasury, token, 1n);
    if (nft) call.tokens.putNft(token.id, serial, { ...nft, account_id: String(token.treasury), spender: null });
  }
  return undefined;
}

export const TOKEN_REJECT_FUNCTIONS: [string, HtsFunction][] = [
  [
    'rejectTokens(address,address[],(address,int64)[])',
    pricedDispatch(
      (call) => {
        const rejections = classicRejections(call.args);
        const nfts = rejections.filter((rejection) => rejection.serial !== undefined).length;
        return rejectGas(rejections.length - nfts, nfts);
      },
      (call) => reject(call, call.args.address(0), classicRejections(call.args)),
    ),
  ],
];

const tokenAddress = (token: TokenState): Uint8Array => longZeroAddress(token.id);

type RedirectWrite = (call: HtsCall, token: TokenState) => Promise<ExecResult>;

/** HRC-904 rejections through a token's proxy, for the proxy's caller. */
export const REJECT_REDIRECTS: ReadonlyMap<number, RedirectWrite> = new Map<number, RedirectWrite>([
  [
    selectorOf('rejectTokenFT()'),
    (call, token) =>
      pricedDispatch(
        () => canonicalGas('TOKEN_REJECT_FT'),
        (c) => reject(c, c.sender, [{ token: tokenAddress(token) }]),
      )(call),
  ],
  [
    selectorOf('rejectTokenNFTs(int64[])'),
    (call, token) => {
      const list = call.args.array(0);
      const serials = limited(
        Array.from({ length: list.length }, (_, i) => ({ token: tokenAddress(token), serial: list.items.int(i, 64) })),
      );
      return pricedDispatch(
        () => canonicalGas('TOKEN_REJECT_NFT'),
        (c) => reject(c, c.sender, serials),
      )(call);
    },
  ],
]);
