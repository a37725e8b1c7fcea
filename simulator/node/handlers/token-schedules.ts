/**
 * What a token's secondary keys change after its creation: its custom fee schedule under the fee schedule key
 * (TokenFeeScheduleUpdate) and its NFTs' metadata under the metadata key (TokenUpdateNfts, HIP-657).
 */
import { bigOf, ensure, type Pb, type TxHandler } from '../handling.ts';
import { checkFeeListShape, feeList, readTokenFees } from './custom-fee-schedule.ts';
import { liveToken } from './lookups.ts';

const MAX_METADATA_BYTES = 100;
/** `tokens.nfts.maxBatchSizeUpdate`. */
const MAX_SERIALS = 10;

export const tokenFeeScheduleUpdate: TxHandler = {
  price: () => ({ kind: 'tokenFeeScheduleUpdate' }),
  pure: (data) => {
    ensure(data.token_id, 'INVALID_TOKEN_ID');
    checkFeeListShape(feeList(data.custom_fees));
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const token = liveToken(ledger, data.token_id);
    const key = token.settings?.feeScheduleKey;
    ensure(key, 'TOKEN_HAS_NO_FEE_SCHEDULE_KEY');
    const schedule = readTokenFees(ledger, feeList(data.custom_fees), { num: token.num, type: token.type });
    return {
      requiredKeys: [key, ...schedule.collectorKeys],
      execute: () => {
        token.settings = { ...token.settings, customFees: schedule.fees };
        return {};
      },
    };
  },
};

const serialsOf = (data: Pb): bigint[] =>
  Array.isArray(data.serial_numbers) ? (data.serial_numbers as unknown[]).map(bigOf) : [];

export const tokenUpdateNfts: TxHandler = {
  price: () => ({ kind: 'tokenUpdateNfts' }),
  pure: (data) => {
    ensure(data.token, 'INVALID_TOKEN_ID');
    const serials = serialsOf(data);
    ensure(serials.length > 0, 'MISSING_SERIAL_NUMBERS');
    ensure(serials.length <= MAX_SERIALS, 'BATCH_SIZE_LIMIT_EXCEEDED');
    for (const serial of serials) ensure(serial > 0n, 'INVALID_TOKEN_NFT_SERIAL_NUMBER');
    const metadata = (data.metadata as Pb | undefined)?.value;
    if (metadata instanceof Uint8Array) ensure(metadata.length <= MAX_METADATA_BYTES, 'METADATA_TOO_LONG');
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const token = liveToken(ledger, data.token);
    const key = token.settings?.metadataKey;
    ensure(key, 'TOKEN_HAS_NO_METADATA_KEY');
    const nfts = [...new Set(serialsOf(data))].map((serial) => {
      const nft = ledger.nft(token.num, serial);
      ensure(nft && !nft.deleted, 'INVALID_NFT_ID');
      return nft;
    });
    return {
      requiredKeys: [key],
      execute: () => {
        // An absent metadata field changes nothing; an empty one clears the metadata.
        if (data.metadata) {
          const metadata = (data.metadata as Pb).value;
          const value = metadata instanceof Uint8Array ? metadata : new Uint8Array();
          for (const nft of nfts) nft.metadata = new Uint8Array(value);
        }
        return {};
      },
    };
  },
};
