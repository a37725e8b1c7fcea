/**
 * The read functions called on HTS 0x167 directly (IHederaTokenService): each answers `(int64 responseCode, …)`,
 * SUCCESS (22) with the values, or the failure's code with default values (the consensus node's non-revertible
 * views). Each charges the HTS view gas.
 */
import { type AbiValue, address, bool, bytes, encode, int, selectorOf, tuple } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { accountAt, type HtsCall, type HtsFunction, priorityAddress, tokenAt } from './hts-context.ts';
import { EMPTY_KEY, keyValueTuple } from './keys.ts';
import { type ResponseCodeName, responseCode, revertWith, success, VIEW_GAS } from './results.ts';
import { DEFAULT_TOKEN, type TokenState } from './token-state.ts';
import { expiryTuple, feeArrays, ledgerIdOf, TOKEN_KEY_TYPES, tokenInfoTuple } from './token-tuples.ts';

const FROZEN = 1;
const KYC_REVOKED = 2;

const answer = (call: HtsCall, status: ResponseCodeName, ...values: AbiValue[]) =>
  success(VIEW_GAS, call.gasLimit, encode(int(responseCode(status)), ...values));

/**
 * A view of the token in argument 0: `view` answers for an existing token; otherwise INVALID_TOKEN_ID with
 * `defaults` (the outputs of Token.DEFAULT). In a static frame a failure reverts with its status instead, as the
 * consensus node does for backwards compatibility (its issue #8746).
 */
function tokenView(
  defaults: (call: HtsCall) => AbiValue[],
  view: (call: HtsCall, token: TokenState) => Promise<[ResponseCodeName, ...AbiValue[]]>,
): HtsFunction {
  return async (call) => {
    const token = await tokenAt(call, call.args.address(0));
    const [status, ...values] = token ? await view(call, token) : ['INVALID_TOKEN_ID' as const, ...defaults(call)];
    if (status !== 'SUCCESS' && call.isStatic) return revertWith(status, VIEW_GAS, call.gasLimit);
    return answer(call, status, ...values);
  };
}

const ledgerId = (call: HtsCall) => ledgerIdOf(call.reader.settings.network);

/** The relationship flag (frozen or KYC) of the account in argument 1 with the token; false when not associated. */
function relationshipFlag(flag: (status: { freeze: number | null; kyc: number | null }) => boolean) {
  return tokenView(
    () => [bool(false)],
    async (call, token) => {
      const account = await accountAt(call, call.args.address(1));
      if (!account) return ['INVALID_ACCOUNT_ID', bool(false)];
      const row = await call.tokens.relationship(account.id, token.id);
      const value = row?.associated === true && flag({ freeze: row.freeze_status, kyc: row.kyc_status });
      return ['SUCCESS', bool(value)];
    },
  );
}

async function nftInfoValues(call: HtsCall, token: TokenState, serial: bigint): Promise<AbiValue[] | undefined> {
  if (token.fungible) return undefined;
  const nft = await call.tokens.nft(token.id, serial);
  if (!nft) return undefined;
  const owner = nft.account_id === null ? token.treasury : BigInt(nft.account_id);
  const spender = nft.spender === null ? undefined : BigInt(nft.spender);
  return [
    int(serial),
    address(await priorityAddress(call, owner)),
    int(nft.created_timestamp === null ? 0n : BigInt(nft.created_timestamp) / 1_000_000_000n),
    bytes(nft.metadata ?? new Uint8Array(0)),
    address(await priorityAddress(call, spender)),
  ];
}

const EMPTY_NFT_VALUES = [int(0n), address(ZERO_ADDRESS), int(0n), bytes(new Uint8Array(0)), address(ZERO_ADDRESS)];

export const DIRECT_FUNCTIONS: ReadonlyMap<number, HtsFunction> = new Map<number, HtsFunction>([
  [
    selectorOf('isToken(address)'),
    async (call) => answer(call, 'SUCCESS', bool((await tokenAt(call, call.args.address(0))) !== undefined)),
  ],
  [
    selectorOf('getTokenType(address)'),
    tokenView(
      () => [int(0n)],
      async (_call, token) => ['SUCCESS', int(token.fungible ? 0n : 1n)],
    ),
  ],
  [
    selectorOf('getTokenInfo(address)'),
    tokenView(
      (call) => [tokenInfoTuple(DEFAULT_TOKEN, ledgerId(call))],
      async (call, token) => ['SUCCESS', tokenInfoTuple(token, ledgerId(call))],
    ),
  ],
  [
    selectorOf('getFungibleTokenInfo(address)'),
    tokenView(
      (call) => [tuple(tokenInfoTuple(DEFAULT_TOKEN, ledgerId(call)), int(0n))],
      async (call, token) => ['SUCCESS', tuple(tokenInfoTuple(token, ledgerId(call)), int(token.decimals))],
    ),
  ],
  [
    selectorOf('getNonFungibleTokenInfo(address,int64)'),
    tokenView(
      (call) => [tuple(tokenInfoTuple(DEFAULT_TOKEN, ledgerId(call)), ...EMPTY_NFT_VALUES)],
      async (call, token) => {
        const values = await nftInfoValues(call, token, call.args.int(1, 64));
        if (!values) {
          return [
            'INVALID_TOKEN_NFT_SERIAL_NUMBER',
            tuple(tokenInfoTuple(DEFAULT_TOKEN, ledgerId(call)), ...EMPTY_NFT_VALUES),
          ];
        }
        return ['SUCCESS', tuple(tokenInfoTuple(token, ledgerId(call)), ...values)];
      },
    ),
  ],
  [
    selectorOf('getTokenDefaultFreezeStatus(address)'),
    tokenView(
      () => [bool(false)],
      async (_call, token) => ['SUCCESS', bool(token.freezeDefault)],
    ),
  ],
  [
    selectorOf('getTokenDefaultKycStatus(address)'),
    tokenView(
      () => [bool(false)],
      // Granted when the token has no KYC key to grant it with (DefaultKycStatusCall).
      async (_call, token) => ['SUCCESS', bool(!token.hasKycKey || token.kycGrantedByDefault)],
    ),
  ],
  [
    selectorOf('isFrozen(address,address)'),
    // As the reference reads token_account: frozen only with the status FROZEN.
    relationshipFlag(({ freeze }) => freeze === FROZEN),
  ],
  [
    selectorOf('isKyc(address,address)'),
    // As the reference reads token_account: granted unless REVOKED (NOT_APPLICABLE and no status count as granted).
    relationshipFlag(({ kyc }) => kyc !== KYC_REVOKED),
  ],
  [
    selectorOf('getTokenCustomFees(address)'),
    tokenView(
      () => feeArrays(DEFAULT_TOKEN),
      async (_call, token) => ['SUCCESS', ...feeArrays(token)],
    ),
  ],
  [
    selectorOf('getTokenKey(address,uint256)'),
    tokenView(
      () => [keyValueTuple(EMPTY_KEY)],
      async (call, token) => {
        const index = TOKEN_KEY_TYPES.indexOf(call.args.uint(1) as (typeof TOKEN_KEY_TYPES)[number]);
        const key = index < 0 ? undefined : token.keys[index];
        if (!key) return ['KEY_NOT_PROVIDED', keyValueTuple(EMPTY_KEY)];
        return ['SUCCESS', keyValueTuple(key)];
      },
    ),
  ],
  [
    selectorOf('getTokenExpiryInfo(address)'),
    tokenView(
      () => [expiryTuple(DEFAULT_TOKEN)],
      async (_call, token) => ['SUCCESS', expiryTuple(token)],
    ),
  ],
  [
    selectorOf('allowance(address,address,address)'),
    tokenView(
      () => [int(0n)],
      async (call, token) => {
        const owner = await accountAt(call, call.args.address(1));
        if (!owner) return ['INVALID_ALLOWANCE_OWNER_ID', int(0n)];
        const spender = await accountAt(call, call.args.address(2));
        if (!spender) return ['INVALID_ALLOWANCE_SPENDER_ID', int(0n)];
        const amount = await call.tokens.tokenAllowance(owner.id, spender.id, token.id);
        return ['SUCCESS', int(amount)];
      },
    ),
  ],
  [
    selectorOf('getApproved(address,uint256)'),
    tokenView(
      () => [address(ZERO_ADDRESS)],
      async (call, token) => {
        if (token.fungible) return ['INVALID_TOKEN_NFT_SERIAL_NUMBER', address(ZERO_ADDRESS)];
        const nft = await call.tokens.nft(token.id, call.args.uint(1));
        if (!nft) return ['INVALID_TOKEN_NFT_SERIAL_NUMBER', address(ZERO_ADDRESS)];
        const spender = nft.spender === null ? undefined : BigInt(nft.spender);
        return ['SUCCESS', address(await priorityAddress(call, spender))];
      },
    ),
  ],
  [
    selectorOf('isApprovedForAll(address,address,address)'),
    tokenView(
      () => [bool(false)],
      async (call, token) => {
        const owner = await accountAt(call, call.args.address(1));
        if (!owner) return ['INVALID_ACCOUNT_ID', bool(false)];
        const operator = await accountAt(call, call.args.address(2));
        const approved = operator !== undefined && (await call.tokens.approvedForAll(owner.id, operator.id, token.id));
        return ['SUCCESS', bool(approved)];
      },
    ),
  ],
]);
