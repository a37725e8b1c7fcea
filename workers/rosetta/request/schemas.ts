/**
 * The Mesh request objects of the Data API as the reference's Go SDK declares them (coinbase/mesh-sdk-go `types`,
 * the module version the reference builds with): each `goStruct` lists its fields in the Go struct's order, which is
 * the order Go writes them back in error messages; an optional member is a Go pointer, slice or map (nil when absent
 * or null). The construction API's requests reuse the identifier objects.
 */
import { z } from 'zod';
import { goInt32, goInt64, goMap, goSlice, goStruct } from '../go-json/decode.ts';

export const subNetworkIdentifierSchema = goStruct('SubNetworkIdentifier', {
  network: z.string(),
  metadata: goMap.optional(),
});

export const networkIdentifierSchema = goStruct('NetworkIdentifier', {
  blockchain: z.string(),
  network: z.string(),
  sub_network_identifier: subNetworkIdentifierSchema.optional(),
});

export const partialBlockIdentifierSchema = goStruct('PartialBlockIdentifier', {
  index: goInt64.optional(),
  hash: z.string().optional(),
});

export const blockIdentifierSchema = goStruct('BlockIdentifier', { index: goInt64, hash: z.string() });

export const transactionIdentifierSchema = goStruct('TransactionIdentifier', { hash: z.string() });

export const subAccountIdentifierSchema = goStruct('SubAccountIdentifier', {
  address: z.string(),
  metadata: goMap.optional(),
});

export const accountIdentifierSchema = goStruct('AccountIdentifier', {
  address: z.string(),
  sub_account: subAccountIdentifierSchema.optional(),
  metadata: goMap.optional(),
});

export const currencySchema = goStruct('Currency', {
  symbol: z.string(),
  decimals: goInt32,
  metadata: goMap.optional(),
});

const currencies = goSlice('[]*types.Currency', currencySchema.optional()).optional();

export const metadataRequestSchema = goStruct('MetadataRequest', { metadata: goMap.optional() });

export const networkRequestSchema = goStruct('NetworkRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  metadata: goMap.optional(),
});

export const blockRequestSchema = goStruct('BlockRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  block_identifier: partialBlockIdentifierSchema.optional(),
});

export const blockTransactionRequestSchema = goStruct('BlockTransactionRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  block_identifier: blockIdentifierSchema.optional(),
  transaction_identifier: transactionIdentifierSchema.optional(),
});

export const accountBalanceRequestSchema = goStruct('AccountBalanceRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  account_identifier: accountIdentifierSchema.optional(),
  block_identifier: partialBlockIdentifierSchema.optional(),
  currencies,
});

export const accountCoinsRequestSchema = goStruct('AccountCoinsRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  account_identifier: accountIdentifierSchema.optional(),
  include_mempool: z.boolean(),
  currencies,
});

export const allAccountBalancesRequestSchema = goStruct('AllAccountBalancesRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  account_identifier: accountIdentifierSchema.optional(),
  block_identifier: partialBlockIdentifierSchema.optional(),
  currencies,
});

export const mempoolTransactionRequestSchema = goStruct('MempoolTransactionRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  transaction_identifier: transactionIdentifierSchema.optional(),
});

export type NetworkIdentifier = z.output<typeof networkIdentifierSchema>;
export type PartialBlockIdentifier = z.output<typeof partialBlockIdentifierSchema>;
export type BlockIdentifier = z.output<typeof blockIdentifierSchema>;
export type TransactionIdentifier = z.output<typeof transactionIdentifierSchema>;
export type AccountIdentifier = z.output<typeof accountIdentifierSchema>;
export type Currency = z.output<typeof currencySchema>;
