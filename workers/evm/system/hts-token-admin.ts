/**
 * The token administration functions of HTS 0x167: mint, burn and wipe, freeze, KYC, pause and delete, each a
 * dispatch (token-dispatch.ts) answering its response code (mint and burn with the new total supply and serials)
 * that needs the token's key for the operation to be active for the call.
 */
import type { NftRow } from '../../../db/queries/evm-system-tokens.ts';
import type { EvmEntity } from '../types.ts';
import { type AbiArgs, type AbiValue, array, int } from './abi.ts';
import { bodyGas } from './dispatch-gas.ts';
import { type BodyUsage, burnUsage, deleteUsage, flagUsage, kycUsage, mintUsage, wipeUsage } from './hapi-fee-usage.ts';
import { type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { canonicalGas, type DispatchType } from './hts-gas.ts';
import type { ResponseCodeName } from './results.ts';
import { associatedRow, existingAccount, fail, liveToken, pricedDispatch, requireKey } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';

const FROZEN = 1;
const UNFROZEN = 2;
const KYC_GRANTED = 1;
const KYC_REVOKED = 2;
/** `tokens.nfts.maxBatchSizeMint`, `tokens.nfts.maxMetadataBytes`, `tokens.nfts.maxBatchSizeBurn` / `…Wipe`. */
const MAX_MINT_BATCH = 10;
const MAX_METADATA_BYTES = 100;
const MAX_BURN_BATCH = 10;

/** The dispatch type of a fungible or NFT variant, by the token in argument 0 (fungible when it does not exist). */
const byTokenType =
  (fungible: DispatchType, nft: DispatchType) =>
  async (call: HtsCall): Promise<DispatchType> => {
    const token = await tokenAt(call, call.args.address(0));
    return token && !token.fungible ? nft : fungible;
  };

/** The gas of a dispatch whose body's usage is fixed. */
const estimatedGas =
  (type: DispatchType, body: BodyUsage) =>
  (call: HtsCall): Promise<bigint> =>
    bodyGas(call, type, body);

/** The gas of a freeze or pause, whose body's size is fixed. */
const flagGas =
  (type: DispatchType, functionality: Parameters<typeof flagUsage>[0]) =>
  (call: HtsCall): Promise<bigint> =>
    bodyGas(call, type, flagUsage(functionality));

/**
 * A wipe's body prices by its serials under the entry of the token's type; without a token there is no type to price
 * by, and the canonical price stands.
 */
const wipeGas =
  (type: DispatchType, serials: (call: HtsCall) => number) =>
  async (call: HtsCall): Promise<bigint> => {
    const token = await tokenAt(call, call.args.address(0));
    if (!token) return canonicalGas(type);
    return bodyGas(call, type, wipeUsage(serials(call), token.fungible));
  };

const serialsOf = (args: AbiArgs, index: number): bigint[] => {
  const list = args.array(index);
  return Array.from({ length: list.length }, (_, i) => list.items.int(i, 64));
};

/** Moves `amount` of the token into (or, negative, out of) the account's balance and the total supply. */
async function changeSupply(
  call: HtsCall,
  token: TokenState,
  account: EvmEntity,
  amount: bigint,
  short: ResponseCodeName,
) {
  const row = await associatedRow(call, account, token);
  const balance = BigInt(row.balance) + amount;
  if (balance < 0n) fail(short);
  call.tokens.putRelationship(account.id, token.id, { ...row, balance: String(balance) });
  const totalSupply = token.totalSupply + amount;
  call.tokens.putToken({ ...token, totalSupply });
  return totalSupply;
}

async function treasuryOf(call: HtsCall, token: TokenState): Promise<EvmEntity> {
  return (await call.reader.entityById(token.treasury)) ?? fail('INVALID_TREASURY_ACCOUNT_FOR_TOKEN');
}

async function mint(call: HtsCall, amount: bigint, metadata: Uint8Array[]): Promise<AbiValue[]> {
  const token = await liveToken(call, call.args.address(0));
  await requireKey(call, token, 'supply');
  if (token.paused) fail('TOKEN_IS_PAUSED');
  const treasury = await treasuryOf(call, token);
  if (token.fungible) {
    if (amount <= 0n || metadata.length > 0) fail('INVALID_TOKEN_MINT_AMOUNT');
    if (token.finiteSupply && token.totalSupply + amount > token.maxSupply) fail('TOKEN_MAX_SUPPLY_REACHED');
    return [int(await changeSupply(call, token, treasury, amount, 'INVALID_TOKEN_MINT_AMOUNT')), array([])];
  }
  if (metadata.length === 0 || amount !== 0n) fail('INVALID_TOKEN_MINT_AMOUNT');
  if (metadata.length > MAX_MINT_BATCH) fail('BATCH_SIZE_LIMIT_EXCEEDED');
  if (metadata.some((item) => item.length > MAX_METADATA_BYTES)) fail('METADATA_TOO_LONG');
  const count = BigInt(metadata.length);
  if (token.finiteSupply && token.totalSupply + count > token.maxSupply) fail('TOKEN_MAX_SUPPLY_REACHED');
  const last = await call.tokens.lastSerial(token.id);
  const created = String(call.reader.block.consensusStart);
  const serials = metadata.map((item, i) => {
    const serial = last + BigInt(i) + 1n;
    const nft: NftRow = {
      account_id: String(treasury.id),
      created_timestamp: created,
      deleted: false,
      metadata: item,
      spender: null,
    };
    call.tokens.putNft(token.id, serial, nft);
    return serial;
  });
  call.tokens.putLastSerial(token.id, last + count);
  const totalSupply = await changeSupply(call, token, treasury, count, 'INVALID_TOKEN_MINT_AMOUNT');
  return [int(totalSupply), array(serials.map((serial) => int(serial)))];
}

/** Takes serials out of an account (a burn from the treasury, a wipe from another account). */
async function removeSerials(
  call: HtsCall,
  token: TokenState,
  account: EvmEntity,
  serials: bigint[],
  notOwned: ResponseCodeName,
): Promise<bigint> {
  if (serials.length > MAX_BURN_BATCH) fail('BATCH_SIZE_LIMIT_EXCEEDED');
  for (const serial of serials) {
    const nft = await call.tokens.nft(token.id, serial);
    if (!nft || serial <= 0n) return fail('INVALID_NFT_ID');
    const owner = nft.account_id === null ? token.treasury : BigInt(nft.account_id);
    if (owner !== account.id) fail(notOwned);
    call.tokens.putNft(token.id, serial, null);
  }
  return changeSupply(call, token, account, -BigInt(serials.length), notOwned);
}

async function burn(call: HtsCall, amount: bigint, serials: bigint[]): Promise<AbiValue[]> {
  const token = await liveToken(call, call.args.address(0));
  await requireKey(call, token, 'supply');
  if (token.paused) fail('TOKEN_IS_PAUSED');
  const treasury = await treasuryOf(call, token);
  if (token.fungible) {
    if (amount <= 0n || serials.length > 0) fail('INVALID_TOKEN_BURN_AMOUNT');
    return [int(await changeSupply(call, token, treasury, -amount, 'INVALID_TOKEN_BURN_AMOUNT'))];
  }
  if (serials.length === 0 || amount !== 0n) fail('INVALID_TOKEN_BURN_AMOUNT');
  return [int(await removeSerials(call, token, treasury, serials, 'TREASURY_MUST_OWN_BURNED_NFT'))];
}

async function wipe(call: HtsCall, amount: bigint, serials: bigint[] | undefined) {
  const token = await liveToken(call, call.args.address(0));
  const account = await existingAccount(call, call.args.address(1));
  await requireKey(call, token, 'wipe');
  if (token.paused) fail('TOKEN_IS_PAUSED');
  // TokenAccountWipeHandler: the relationship, then its KYC where the token has a KYC key, then the treasury.
  const row = await associatedRow(call, account, token);
  if (token.hasKycKey && row.kyc_status !== KYC_GRANTED) fail('ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
  if (token.treasury === account.id) fail('CANNOT_WIPE_TOKEN_TREASURY_ACCOUNT');
  if (serials === undefined) {
    if (!token.fungible) fail('INVALID_WIPING_AMOUNT');
    if (amount <= 0n) fail('INVALID_WIPING_AMOUNT');
    await changeSupply(call, token, account, -amount, 'INVALID_WIPING_AMOUNT');
  } else {
    if (token.fungible || serials.length === 0) fail('INVALID_WIPING_AMOUNT');
    await removeSerials(call, token, account, serials, 'ACCOUNT_DOES_NOT_OWN_WIPED_NFT');
  }
  return undefined;
}

/** Freeze or KYC of the account in argument 1 with the token in argument 0. */
function relationshipFlag(kind: 'freeze' | 'kyc', value: number) {
  return async (call: HtsCall) => {
    const token = await liveToken(call, call.args.address(0));
    const account = await existingAccount(call, call.args.address(1));
    await requireKey(call, token, kind);
    if (token.paused) fail('TOKEN_IS_PAUSED');
    const row = await associatedRow(call, account, token);
    const flag = kind === 'freeze' ? { freeze_status: value } : { kyc_status: value };
    call.tokens.putRelationship(account.id, token.id, { ...row, ...flag });
    return undefined;
  };
}

function tokenFlag(kind: 'pause' | 'admin', change: (token: TokenState) => TokenState) {
  return async (call: HtsCall) => {
    const token = await liveToken(call, call.args.address(0));
    await requireKey(call, token, kind);
    if (kind === 'admin' && token.paused) fail('TOKEN_IS_PAUSED');
    call.tokens.putToken(change(token));
    return undefined;
  };
}

const bytesList = (args: AbiArgs, index: number): Uint8Array[] => {
  const list = args.array(index);
  return Array.from({ length: list.length }, (_, i) => list.items.bytes(i));
};

export const TOKEN_ADMIN_FUNCTIONS: [string, HtsFunction][] = [
  ...(['mintToken(address,uint64,bytes[])', 'mintToken(address,int64,bytes[])'] as const).map(
    (signature, v2): [string, HtsFunction] => [
      signature,
      pricedDispatch(
        async (call) =>
          bodyGas(
            call,
            await byTokenType('MINT_FUNGIBLE', 'MINT_NFT')(call),
            mintUsage(v2 ? call.args.int(1, 64) : call.args.uint(1), call.args.array(2).length),
          ),
        (call) => mint(call, v2 ? call.args.int(1, 64) : call.args.uint(1), bytesList(call.args, 2)),
        [int(0n), array([])],
      ),
    ],
  ),
  ...(['burnToken(address,uint64,int64[])', 'burnToken(address,int64,int64[])'] as const).map(
    (signature, v2): [string, HtsFunction] => [
      signature,
      pricedDispatch(
        async (call) =>
          bodyGas(call, await byTokenType('BURN_FUNGIBLE', 'BURN_NFT')(call), burnUsage(call.args.array(2).length)),
        (call) => burn(call, v2 ? call.args.int(1, 64) : call.args.uint(1), serialsOf(call.args, 2)),
        [int(0n)],
      ),
    ],
  ),
  [
    'wipeTokenAccount(address,address,uint32)',
    pricedDispatch(
      wipeGas('WIPE_FUNGIBLE', () => 0),
      (call) => wipe(call, call.args.uint(2), undefined),
    ),
  ],
  [
    'wipeTokenAccount(address,address,int64)',
    pricedDispatch(
      wipeGas('WIPE_FUNGIBLE', () => 0),
      (call) => wipe(call, call.args.int(2, 64), undefined),
    ),
  ],
  [
    'wipeTokenAccountNFT(address,address,int64[])',
    pricedDispatch(
      wipeGas('WIPE_NFT', (call) => call.args.array(2).length),
      (call) => wipe(call, 0n, serialsOf(call.args, 2)),
    ),
  ],
  [
    'freezeToken(address,address)',
    pricedDispatch(flagGas('FREEZE', 'TokenFreezeAccount'), relationshipFlag('freeze', FROZEN)),
  ],
  [
    'unfreezeToken(address,address)',
    pricedDispatch(flagGas('UNFREEZE', 'TokenUnfreezeAccount'), relationshipFlag('freeze', UNFROZEN)),
  ],
  [
    'grantTokenKyc(address,address)',
    pricedDispatch(estimatedGas('GRANT_KYC', kycUsage('TokenGrantKycToAccount')), relationshipFlag('kyc', KYC_GRANTED)),
  ],
  [
    'revokeTokenKyc(address,address)',
    pricedDispatch(
      estimatedGas('REVOKE_KYC', kycUsage('TokenRevokeKycFromAccount')),
      relationshipFlag('kyc', KYC_REVOKED),
    ),
  ],
  [
    'pauseToken(address)',
    pricedDispatch(
      flagGas('PAUSE', 'TokenPause'),
      tokenFlag('pause', (token) => ({ ...token, paused: true })),
    ),
  ],
  [
    'unpauseToken(address)',
    pricedDispatch(
      flagGas('UNPAUSE', 'TokenUnpause'),
      tokenFlag('pause', (token) => ({ ...token, paused: false })),
    ),
  ],
  [
    'deleteToken(address)',
    pricedDispatch(
      estimatedGas('DELETE', deleteUsage()),
      tokenFlag('admin', (token) => ({ ...token, deleted: true })),
    ),
  ],
];
