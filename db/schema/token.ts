import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgEnum, pgTable, primaryKey, smallint, varchar } from 'drizzle-orm/pg-core';
import { bytea, entityId, hbarTinybars, int8range } from './column-types.ts';

export const tokenType = pgEnum('token_type', ['FUNGIBLE_COMMON', 'NON_FUNGIBLE_UNIQUE']);

export const tokenSupplyType = pgEnum('token_supply_type', ['INFINITE', 'FINITE']);

export const tokenPauseStatus = pgEnum('token_pause_status', ['NOT_APPLICABLE', 'PAUSED', 'UNPAUSED']);

const tokenColumns = () => ({
  tokenId: entityId('token_id').notNull(),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }).notNull(),
  decimals: bigint('decimals', { mode: 'bigint' }).notNull(),
  freezeDefault: boolean('freeze_default').notNull().default(false),
  freezeKey: bytea('freeze_key'),
  initialSupply: bigint('initial_supply', { mode: 'bigint' }).notNull(),
  kycKey: bytea('kyc_key'),
  name: varchar('name', { length: 100 }).notNull(),
  supplyKey: bytea('supply_key'),
  symbol: varchar('symbol', { length: 100 }).notNull(),
  totalSupply: bigint('total_supply', { mode: 'bigint' }).notNull().default(sql`0`),
  treasuryAccountId: entityId('treasury_account_id').notNull(),
  wipeKey: bytea('wipe_key'),
  maxSupply: bigint('max_supply', { mode: 'bigint' }).notNull().default(sql`9223372036854775807`),
  supplyType: tokenSupplyType('supply_type').notNull().default('INFINITE'),
  type: tokenType('type').notNull().default('FUNGIBLE_COMMON'),
  feeScheduleKey: bytea('fee_schedule_key'),
  pauseKey: bytea('pause_key'),
  pauseStatus: tokenPauseStatus('pause_status').notNull().default('NOT_APPLICABLE'),
  timestampRange: int8range('timestamp_range').notNull(),
  freezeStatus: smallint('freeze_status').notNull(),
  kycStatus: smallint('kyc_status').notNull(),
  metadata: bytea('metadata'),
  metadataKey: bytea('metadata_key'),
});

export const token = pgTable('token', tokenColumns(), (t) => [
  primaryKey({ name: 'token_pkey', columns: [t.tokenId] }),
]);

export const tokenHistory = pgTable('token_history', tokenColumns());

const tokenAccountColumns = () => ({
  accountId: bigint('account_id', { mode: 'bigint' }).notNull(),
  associated: boolean('associated').notNull().default(false),
  automaticAssociation: boolean('automatic_association'),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }),
  freezeStatus: smallint('freeze_status'),
  kycStatus: smallint('kyc_status'),
  timestampRange: int8range('timestamp_range').notNull(),
  tokenId: bigint('token_id', { mode: 'bigint' }).notNull(),
  balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
  balanceTimestamp: bigint('balance_timestamp', { mode: 'bigint' }),
});

export const tokenAccount = pgTable('token_account', tokenAccountColumns(), (t) => [
  primaryKey({ name: 'token_account_pkey', columns: [t.accountId, t.tokenId] }),
  index('token_account__token_id_account_id').on(t.tokenId, t.accountId),
]);

export const tokenAccountHistory = pgTable('token_account_history', tokenAccountColumns());

/** `amount` is in the token's smallest unit, despite the reference's `hbar_tinybars` domain on the column. */
export const tokenTransfer = pgTable(
  'token_transfer',
  {
    tokenId: entityId('token_id').notNull(),
    accountId: entityId('account_id').notNull(),
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    amount: hbarTinybars('amount').notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    isApproval: boolean('is_approval'),
  },
  (t) => [
    index('token_transfer__account_timestamp').on(t.accountId, t.consensusTimestamp.desc().nullsFirst()),
    index('token_transfer__token_account_timestamp').on(
      t.consensusTimestamp.desc().nullsFirst(),
      t.tokenId.desc().nullsFirst(),
      t.accountId.desc().nullsFirst(),
    ),
  ],
);

const nftColumns = () => ({
  accountId: bigint('account_id', { mode: 'bigint' }),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }),
  deleted: boolean('deleted').default(false),
  metadata: bytea('metadata'),
  serialNumber: bigint('serial_number', { mode: 'bigint' }).notNull(),
  tokenId: bigint('token_id', { mode: 'bigint' }).notNull(),
  delegatingSpender: bigint('delegating_spender', { mode: 'bigint' }),
  spender: bigint('spender', { mode: 'bigint' }),
  timestampRange: int8range('timestamp_range').notNull(),
});

export const nft = pgTable('nft', nftColumns(), (t) => [
  primaryKey({ name: 'nft_pkey', columns: [t.tokenId, t.serialNumber] }),
  index('nft__account_token_serialnumber').on(t.accountId, t.tokenId, t.serialNumber),
]);

export const nftHistory = pgTable('nft_history', nftColumns());

const customFeeColumns = () => ({
  fixedFees: jsonb('fixed_fees'),
  fractionalFees: jsonb('fractional_fees'),
  royaltyFees: jsonb('royalty_fees'),
  timestampRange: int8range('timestamp_range').notNull(),
  entityId: bigint('entity_id', { mode: 'bigint' }).notNull(),
});

export const customFee = pgTable('custom_fee', customFeeColumns(), (t) => [
  primaryKey({ name: 'custom_fee_pkey', columns: [t.entityId] }),
]);

export const customFeeHistory = pgTable('custom_fee_history', customFeeColumns());

export const assessedCustomFee = pgTable(
  'assessed_custom_fee',
  {
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    collectorAccountId: bigint('collector_account_id', { mode: 'bigint' }).notNull(),
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    tokenId: bigint('token_id', { mode: 'bigint' }),
    effectivePayerAccountIds: bigint('effective_payer_account_ids', { mode: 'bigint' }).array().notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  },
  (t) => [index('assessed_custom_fee__consensus_timestamp').on(t.consensusTimestamp)],
);
