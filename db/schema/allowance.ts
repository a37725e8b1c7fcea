import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { int8range } from './column-types.ts';

const cryptoAllowanceColumns = () => ({
  amountGranted: bigint('amount_granted', { mode: 'bigint' }).notNull(),
  owner: bigint('owner', { mode: 'bigint' }).notNull(),
  payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  spender: bigint('spender', { mode: 'bigint' }).notNull(),
  timestampRange: int8range('timestamp_range').notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull().default(sql`0`),
});

export const cryptoAllowance = pgTable('crypto_allowance', cryptoAllowanceColumns(), (t) => [
  primaryKey({ name: 'crypto_allowance_pkey', columns: [t.owner, t.spender] }),
]);

export const cryptoAllowanceHistory = pgTable('crypto_allowance_history', cryptoAllowanceColumns());

const nftAllowanceColumns = () => ({
  approvedForAll: boolean('approved_for_all').notNull(),
  owner: bigint('owner', { mode: 'bigint' }).notNull(),
  payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  spender: bigint('spender', { mode: 'bigint' }).notNull(),
  timestampRange: int8range('timestamp_range').notNull(),
  tokenId: bigint('token_id', { mode: 'bigint' }).notNull(),
});

export const nftAllowance = pgTable('nft_allowance', nftAllowanceColumns(), (t) => [
  primaryKey({ name: 'nft_allowance_pkey', columns: [t.owner, t.spender, t.tokenId] }),
  index('nft_allowance__spender_owner_token').on(t.spender, t.owner, t.tokenId),
]);

export const nftAllowanceHistory = pgTable('nft_allowance_history', nftAllowanceColumns());

const tokenAllowanceColumns = () => ({
  amountGranted: bigint('amount_granted', { mode: 'bigint' }).notNull(),
  owner: bigint('owner', { mode: 'bigint' }).notNull(),
  payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  spender: bigint('spender', { mode: 'bigint' }).notNull(),
  timestampRange: int8range('timestamp_range').notNull(),
  tokenId: bigint('token_id', { mode: 'bigint' }).notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull().default(sql`0`),
});

export const tokenAllowance = pgTable('token_allowance', tokenAllowanceColumns(), (t) => [
  primaryKey({ name: 'token_allowance_pkey', columns: [t.owner, t.spender, t.tokenId] }),
]);

export const tokenAllowanceHistory = pgTable('token_allowance_history', tokenAllowanceColumns());
