import { countKeyField } from '../keys.ts';
import { type Fields, fieldCount, repeatedVarintCount, varintField } from '../wire.ts';
import { addExtra, type ServiceCalculator } from './common.ts';

const keysOf = (op: Fields, fieldNumbers: readonly number[]): bigint =>
  fieldNumbers.reduce((sum, number) => sum + countKeyField(op, number), 0n);

/** TokenCreateTransactionBody: admin, KYC, freeze, wipe, supply, fee schedule, pause and metadata keys. */
const CREATE_KEYS = [6, 7, 8, 9, 10, 20, 22, 24];
/** TokenUpdateTransactionBody: the same keys. */
const UPDATE_KEYS = [5, 6, 7, 8, 9, 14, 15, 17];

export const tokenCreate: ServiceCalculator = (op, context) => {
  addExtra(context, 'KEYS', keysOf(op, CREATE_KEYS));
  if (fieldCount(op, 21) > 0) addExtra(context, 'TOKEN_CREATE_WITH_CUSTOM_FEE', 1);
};

export const tokenUpdate: ServiceCalculator = (op, context) => {
  addExtra(context, 'KEYS', keysOf(op, UPDATE_KEYS));
};

/** A mint of NFTs (amount 0) pays a flat extra and one per metadata entry beyond the included one. */
export const tokenMint: ServiceCalculator = (op, context) => {
  if (varintField(op, 2) !== 0n) return;
  addExtra(context, 'TOKEN_MINT_NFT_BASE', 1);
  addExtra(context, 'TOKEN_MINT_NFT', fieldCount(op, 3));
};

export const tokenAssociate: ServiceCalculator = (op, context) => {
  addExtra(context, 'TOKEN_ASSOCIATE', fieldCount(op, 2));
};

export const tokenUpdateNfts: ServiceCalculator = (op, context) => {
  addExtra(context, 'NFT_UPDATE', repeatedVarintCount(op, 2));
};
