/**
 * The ERC-20 / ERC-721 reads of a token through its redirect proxy (HIP-218): bare ERC answers, and a revert whose
 * data is the status name where the consensus node reverts. Each charges the HTS view gas.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { address, bool, encode, int, selectorOf, string } from './abi.ts';
import { accountAt, type HtsCall, priorityAddress } from './hts-context.ts';
import { halt, revertWith, success, VIEW_GAS } from './results.ts';
import type { TokenState } from './token-state.ts';

type ErcFunction = (call: HtsCall, token: TokenState) => Promise<ExecResult>;

/** What tokenURI answers for a serial that does not exist (TokenUriCall). */
const URI_QUERY_NON_EXISTING_TOKEN_ERROR = 'ERC721Metadata: URI query for nonexistent token';

const UINT8_MAX = 255n;

const ok = (call: HtsCall, output: Uint8Array) => success(VIEW_GAS, call.gasLimit, output);

/** The NFT whose serial is argument 0, when the token is an NFT and the serial exists at the block. */
const liveNft = (call: HtsCall, token: TokenState) =>
  token.fungible ? Promise.resolve(undefined) : call.tokens.nft(token.id, call.args.uint(0));

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
      const owner = await accountAt(call, call.args.address(0));
      if (!owner) return revertWith('INVALID_ACCOUNT_ID', VIEW_GAS, call.gasLimit);
      return ok(call, encode(int(await call.tokens.balance(owner.id, token))));
    },
  ],
  [
    selectorOf('allowance(address,address)'),
    async (call, token) => {
      const owner = await accountAt(call, call.args.address(0));
      if (!owner) return revertWith('INVALID_ALLOWANCE_OWNER_ID', VIEW_GAS, call.gasLimit);
      const spender = await accountAt(call, call.args.address(1));
      if (!spender) return revertWith('INVALID_ALLOWANCE_SPENDER_ID', VIEW_GAS, call.gasLimit);
      const allowance = await call.tokens.tokenAllowance(owner.id, spender.id, token.id);
      return ok(call, encode(int(allowance)));
    },
  ],
  [
    selectorOf('ownerOf(uint256)'),
    async (call, token) => {
      const nft = await liveNft(call, token);
      if (!nft) return revertWith('INVALID_TOKEN_NFT_SERIAL_NUMBER', VIEW_GAS, call.gasLimit);
      const owner = optionalId(nft.account_id) ?? token.treasury;
      return ok(call, encode(address(await priorityAddress(call, owner))));
    },
  ],
  [
    selectorOf('tokenURI(uint256)'),
    async (call, token) => {
      // A fungible token halts rather than reverting, for backwards compatibility (consensus node issue #8746).
      if (token.fungible) return halt(call.gasLimit);
      const nft = await liveNft(call, token);
      const uri = nft
        ? new TextDecoder().decode(nft.metadata ?? new Uint8Array(0))
        : URI_QUERY_NON_EXISTING_TOKEN_ERROR;
      return ok(call, encode(string(uri)));
    },
  ],
  [
    selectorOf('getApproved(uint256)'),
    async (call, token) => {
      const nft = await liveNft(call, token);
      if (!nft) return revertWith('INVALID_TOKEN_NFT_SERIAL_NUMBER', VIEW_GAS, call.gasLimit);
      return ok(call, encode(address(await priorityAddress(call, optionalId(nft.spender)))));
    },
  ],
  [
    // HRC-719: whether the sender is associated with the token.
    selectorOf('isAssociated()'),
    async (call, token) => {
      const sender = await accountAt(call, call.sender);
      const row = sender && (await call.tokens.relationship(sender.id, token.id));
      return ok(call, encode(bool(row?.associated === true)));
    },
  ],
  [
    selectorOf('isApprovedForAll(address,address)'),
    async (call, token) => {
      const owner = await accountAt(call, call.args.address(0));
      if (!owner) return revertWith('INVALID_ACCOUNT_ID', VIEW_GAS, call.gasLimit);
      const operator = await accountAt(call, call.args.address(1));
      const approved = operator !== undefined && (await call.tokens.approvedForAll(owner.id, operator.id, token.id));
      return ok(call, encode(bool(approved)));
    },
  ],
]);
