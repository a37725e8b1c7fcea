/**
 * `updateNFTsMetadata(address,int64[],bytes)` on HTS 0x167: the TokenUpdateNfts the node dispatches
 * (UpdateNFTsMetadataTranslator, TokenUpdateNftsHandler), answering its response code. Serials all held by the
 * treasury may be updated with the metadata key or the supply key; any other serial needs the metadata key. The
 * token may be deleted or paused: the handler does not look.
 */
import type { NftRow } from '../../../db/queries/evm-system-tokens.ts';
import { partiesOf } from './call-parties.ts';
import { type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { keySatisfied } from './key-checks.ts';
import { dispatch, fail, fixed } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';

/** `tokens.nfts.maxBatchSizeUpdate` and `tokens.nfts.maxMetadataBytes`. */
const MAX_UPDATE_BATCH = 10;
const MAX_METADATA_BYTES = 100;

const ownerOf = (token: TokenState, nft: NftRow): bigint =>
  nft.account_id === null ? token.treasury : BigInt(nft.account_id);

/** The pre-handle's signing check: which keys may sign depends on whether the treasury holds every serial. */
async function requireSigner(call: HtsCall, token: TokenState, serials: readonly bigint[]): Promise<void> {
  let inTreasury = true;
  for (const serial of serials) {
    const nft = await call.tokens.nft(token.id, serial);
    if (!nft) return fail('INVALID_NFT_ID');
    if (ownerOf(token, nft) !== token.treasury) {
      inTreasury = false;
      break;
    }
  }
  const supplyKey = token.keyBytes[4];
  const { metadataKey } = token;
  const allowed = (inTreasury ? [metadataKey, supplyKey] : [metadataKey]).filter((key) => key !== undefined);
  if (allowed.length === 0) fail(inTreasury ? 'TOKEN_HAS_NO_METADATA_OR_SUPPLY_KEY' : 'TOKEN_HAS_NO_METADATA_KEY');
  const { signers } = await partiesOf(call);
  if (!allowed.some((key) => keySatisfied(key, signers))) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
}

async function updateMetadata(call: HtsCall): Promise<undefined> {
  const list = call.args.array(1);
  const serials = Array.from({ length: list.length }, (_, i) => list.items.int(i, 64));
  const metadata = call.args.bytes(2);
  if (serials.length === 0) fail('MISSING_SERIAL_NUMBERS');
  const token = (await tokenAt(call, call.args.address(0))) ?? fail('INVALID_TOKEN_ID');
  await requireSigner(call, token, serials);
  if (metadata.length > MAX_METADATA_BYTES) fail('METADATA_TOO_LONG');
  if (serials.length > MAX_UPDATE_BATCH) fail('BATCH_SIZE_LIMIT_EXCEEDED');
  for (const serial of new Set(serials)) {
    if (serial <= 0n) fail('INVALID_TOKEN_NFT_SERIAL_NUMBER');
    const nft = (await call.tokens.nft(token.id, serial)) ?? fail('INVALID_NFT_ID');
    call.tokens.putNft(token.id, serial, { ...nft, metadata });
  }
  return undefined;
}

export const NFT_METADATA_FUNCTIONS: [string, HtsFunction][] = [
  ['updateNFTsMetadata(address,int64[],bytes)', dispatch(fixed('TOKEN_UPDATE_NFTS'), updateMetadata)],
];
