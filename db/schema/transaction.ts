import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { bytea, entityId, hbarTinybars, nanosTimestamp } from './column-types.ts';

export const errataType = pgEnum('errata_type', ['INSERT', 'DELETE']);

/** One row per transaction, keyed by its consensus timestamp in nanoseconds since the epoch. */
export const transaction = pgTable(
  'transaction',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    type: smallint('type').notNull(),
    result: smallint('result').notNull(),
    payerAccountId: entityId('payer_account_id').notNull(),
    validStartNs: bigint('valid_start_ns', { mode: 'bigint' }).notNull(),
    validDurationSeconds: bigint('valid_duration_seconds', { mode: 'bigint' }),
    nodeAccountId: entityId('node_account_id'),
    entityId: entityId('entity_id'),
    initialBalance: bigint('initial_balance', { mode: 'bigint' }).default(sql`0`),
    maxFee: hbarTinybars('max_fee'),
    chargedTxFee: bigint('charged_tx_fee', { mode: 'bigint' }),
    memo: bytea('memo'),
    transactionHash: bytea('transaction_hash'),
    transactionBytes: bytea('transaction_bytes'),
    scheduled: boolean('scheduled').notNull().default(false),
    nonce: integer('nonce').notNull().default(0),
    parentConsensusTimestamp: bigint('parent_consensus_timestamp', { mode: 'bigint' }),
    errata: errataType('errata'),
    index: integer('index'),
    nftTransfer: jsonb('nft_transfer'),
    itemizedTransfer: jsonb('itemized_transfer'),
    transactionRecordBytes: bytea('transaction_record_bytes'),
    maxCustomFees: bytea('max_custom_fees').array(),
    batchKey: bytea('batch_key'),
    innerTransactions: bigint('inner_transactions', { mode: 'bigint' }).array(),
    highVolume: boolean('high_volume').notNull().default(false),
    congestionPricingMultiplier: bigint('congestion_pricing_multiplier', { mode: 'bigint' }),
    highVolumePricingMultiplier: bigint('high_volume_pricing_multiplier', { mode: 'bigint' }),
  },
  (t) => [
    primaryKey({ name: 'transaction_pkey', columns: [t.consensusTimestamp] }),
    index('transaction__payer_account_id_consensus_ns').on(t.payerAccountId, t.consensusTimestamp),
    index('transaction__transaction_id').on(t.validStartNs, t.payerAccountId),
    index('transaction__type_consensus_timestamp').on(t.type, t.consensusTimestamp),
  ],
);

/**
 * The 48-byte SHA-384 of each transaction, split into `hash` (its first 32 bytes) and `hashSuffix` (the last 16).
 * LIST-partitioned on the first byte of `hash` by migration 0002, which also defines `get_transaction_info_by_hash`,
 * the lookup that reads the one partition a hash can be in.
 */
export const transactionHash = pgTable('transaction_hash', {
  consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
  hash: bytea('hash').notNull(),
  payerAccountId: bigint('payer_account_id', { mode: 'bigint' }),
  hashSuffix: bytea('hash_suffix'),
});

export const transactionSignature = pgTable(
  'transaction_signature',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    publicKeyPrefix: bytea('public_key_prefix').notNull(),
    entityId: bigint('entity_id', { mode: 'bigint' }),
    signature: bytea('signature').notNull(),
    type: smallint('type'),
  },
  (t) => [
    index('transaction_signature__entity_id').on(
      t.entityId.desc().nullsFirst(),
      t.consensusTimestamp.desc().nullsFirst(),
    ),
  ],
);

export const cryptoTransfer = pgTable(
  'crypto_transfer',
  {
    entityId: entityId('entity_id').notNull(),
    consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
    amount: hbarTinybars('amount').notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    isApproval: boolean('is_approval'),
    errata: errataType('errata'),
  },
  (t) => [index('crypto_transfer__consensus_timestamp').on(t.consensusTimestamp)],
);

export const nonFeeTransfer = pgTable(
  'non_fee_transfer',
  {
    entityId: entityId('entity_id'),
    consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
    amount: hbarTinybars('amount').notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    isApproval: boolean('is_approval'),
  },
  (t) => [index('non_fee_transfer__consensus_timestamp').on(t.consensusTimestamp)],
);

export const prng = pgTable(
  'prng',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    range: integer('range').notNull(),
    prngBytes: bytea('prng_bytes'),
    prngNumber: integer('prng_number'),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ name: 'prng_pkey', columns: [t.consensusTimestamp] })],
);

export const liveHash = pgTable(
  'live_hash',
  {
    livehash: bytea('livehash'),
    consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
  },
  (t) => [primaryKey({ name: 'live_hash_pkey', columns: [t.consensusTimestamp] })],
);
