/**
 * The ERC-20 / ERC-721 reads of a token through its redirect proxy (HIP-218): bare ERC answers, and a revert whose
 * data is the status name where the consensus node reverts. Each charges the HTS view gas.
 */
import type { ExecResult } from '@ethereumjs/evm';
import {
  nftApprovedForAllAt,
  nftAt,
  nftBalanceAt,
  tokenAllowanceAt,
  tokenRelationshipAt,
} from '../../../db/queries/evm-system-tokens.ts';
import { address, bool, encode, int, selectorOf, string } from './abi.ts';
import { accountAt, type HtsCall, priorityAddress, stateTimestamp } from './hts-context.ts';
import { halt, revertWith, success, VIEW_GAS } from './results.ts';
import type { TokenState } from './token-state.ts';

type ErcFunction = (call: HtsCall, token: TokenState) => Promise<ExecResult>;

/** What tokenURI answers for a serial that does not exist (TokenUriCall). */
const URI_QUERY_NON_EXISTING_TOKEN_ERROR = 'ERC721Metadata: URI query for nonexistent token';

const UINT8_MAX = 255n;

const ok = (call: HtsCall, output: Uint8Array) => success(VIEW_GAS, call.gasLimit, output);

/** The account's balance of the token: a fungible amount, or how many of the NFT's serials it owns. */
async function balanceOf(call: HtsCall, token: TokenState, accountId: bigint): Promise<bigint> {
  const at = stateTimestamp(call.reader);
  if (at !== undefined && !token.fungible) return nftBalanceAt(call.reader.db, accountId, token.id, at);
  const relationship = await tokenRelationshipAt(call.reader.db, accountId, token.id, at);
  return relationship ? BigInt(relationship.balance) : 0n;
}

/** The serial's NFT row when it exists (minted and not burned) at the block. */
async function liveNft(call: HtsCall, token: TokenState, serial: bigint) {
  if (token.fungible) return undefined;
  const nft = await nftAt(call.reader.db, token.id, serial, stateTimestamp(call.reader));
  return nft && nft.deleted !== true ? nft : undefined;
}

const optionalId = (value: string | null): bigint | undefined => (value === null ? undefined : BigInt(value));

export const ERC_FUNCTIONS: ReadonlyMap<number, ErcFunction> = new Map<number, ErcFunction>([
  [selectorOf('name()'), async (call, token) => ok(call, encode(string(token.name)))],
  [selectorOf('symbol()'), async (call, token) => ok(call, encode(string(token.symbol)))],
  [
    selectorOf('decimals()'),
    async (call, token) =>
      token.fungible
        ? ok(call, encode(int(token.decimals > UINT8_MAX ? UINT8_MAX : token.decimals)))
        : revertWith('INVALID_TOKEN_ID', VIEW_GAS, call.gasLimit),
  ],
  [selectorOf('totalSupply()'), async (call, token) => ok(call, encode(int(token.totalSupply)))],
  [
    selectorOf('balanceOf(address)'),
    async (call, token) => {
      const owner = await accountAt(call.reader, call.args.address(0));
      if (!owner) return revertWith('INVALID_ACCOUNT_ID', VIEW_GAS, call.gasLimit);
      return ok(call, encode(int(await balanceOf(call, token, owner.id))));
    },
  ],
  [
    selectorOf('allowance(address,address)'),
    async (call, token) => {
      const owner = await accountAt(call.reader, call.args.address(0));
      if (!owner) return revertWith('INVALID_ALLOWANCE_OWNER_ID', VIEW_GAS, call.gasLimit);
      const spender = await accountAt(call.reader, call.args.address(1));
      if (!spender) return revertWith('INVALID_ALLOWANCE_SPENDER_ID', VIEW_GAS, call.gasLimit);
      const allowance = await tokenAllowanceAt(
        call.reader.db,
        { owner: owner.id, spender: spender.id, tokenId: token.id },
        stateTimestamp(call.reader),
      );
      return ok(call, encode(int(allowance)));
    },
  ],
  [
    selectorOf('ownerOf(uint256)'),
    async (call, token) => {
      const nft = await liveNft(call, token, call.args.uint(0));
      if (!nft) return revertWith('INVALID_TOKEN_NFT_SERIAL_NUMBER', VIEW_GAS, call.gasLimit);
      const owner = optionalId(nft.account_id) ?? token.treasury;
      return ok(call, encode(address(await priorityAddress(call.reader, owner))));
    },
  ],
  [
    selectorOf('tokenURI(uint256)'),
    async (call, token) => {
      // A fungible token halts rather than reverting, for backwards compatibility (consensus node issue #8746).
      if (token.fungible) return halt(call.gasLimit);
      const nft = await liveNft(call, token, call.args.uint(0));
      const uri = nft
        ? new TextDecoder().decode(nft.metadata ?? new Uint8Array(0))
        : URI_QUERY_NON_EXISTING_TOKEN_ERROR;
      return ok(call, encode(string(uri)));
    },
  ],
  [
    selectorOf('getApproved(uint256)'),
    async (call, token) => {
      const nft = await liveNft(call, token, call.args.uint(0));
      if (!nft) return revertWith('INVALID_TOKEN_NFT_SERIAL_NUMBER', VIEW_GAS, call.gasLimit);
      return ok(call, encode(address(await priorityAddress(call.reader, optionalId(nft.spender)))));
    },
  ],
  [
    selectorOf('isApprovedForAll(address,address)'),
    async (call, token) => {
      const owner = await accountAt(call.reader, call.args.address(0));
      if (!owner) return revertWith('INVALID_ACCOUNT_ID', VIEW_GAS, call.gasLimit);
      const operator = await accountAt(call.reader, call.args.address(1));
      const approved =
        operator !== undefined &&
        (await nftApprovedForAllAt(
          call.reader.db,
          { owner: owner.id, spender: operator.id, tokenId: token.id },
          stateTimestamp(call.reader),
        ));
      return ok(call, encode(bool(approved)));
    },
  ],
]);
