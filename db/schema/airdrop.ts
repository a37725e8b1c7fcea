import { bigint, index, pgEnum, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { int8range } from './column-types.ts';

export const airdropState = pgEnum('airdrop_state', ['CANCELLED', 'CLAIMED', 'PENDING']);

const tokenAirdropColumns = () => ({
  amount: bigint('amount', { mode: 'bigint' }),
  receiverAccountId: bigint('receiver_account_id', { mode: 'bigint' }).notNull(),
  senderAccountId: bigint('sender_account_id', { mode: 'bigint' }).notNull(),
  serialNumber: bigint('serial_number', { mode: 'bigint' }).notNull(),
  state: airdropState('state').notNull().default('PENDING'),
  timestampRange: int8range('timestamp_range').notNull(),
  tokenId: bigint('token_id', { mode: 'bigint' }).notNull(),
});

export const tokenAirdrop = pgTable('token_airdrop', tokenAirdropColumns(), (t) => [
  index('token_airdrop__receiver_id').on(t.receiverAccountId, t.senderAccountId, t.tokenId, t.serialNumber),
  uniqueIndex('token_airdrop__sender_id').on(t.senderAccountId, t.receiverAccountId, t.tokenId, t.serialNumber),
]);

/**
 * Not in the reference: a pending airdrop's earlier versions by its key, for a contract call at a past block
 * (db/migrations/0006_token_airdrop_history_key.sql).
 */
export const tokenAirdropHistory = pgTable('token_airdrop_history', tokenAirdropColumns(), (t) => [
  index('token_airdrop_history__sender_id').on(t.senderAccountId, t.receiverAccountId, t.tokenId, t.serialNumber),
]);
