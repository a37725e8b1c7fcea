import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { bytea, entityId, hbarTinybars, nanosTimestamp } from './column-types.ts';

const accountBalanceColumns = () => ({
  consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
  balance: hbarTinybars('balance').notNull(),
  accountId: entityId('account_id').notNull(),
});

/**
 * Hbar balance snapshots. RANGE-partitioned on `consensus_timestamp` by migration 0002; rows are written
 * through this parent table.
 */
export const accountBalance = pgTable('account_balance', accountBalanceColumns(), (t) => [
  primaryKey({ name: 'account_balance_pkey', columns: [t.accountId, t.consensusTimestamp] }),
]);

/** The reference's unpartitioned predecessor of `account_balance`, kept with the same name and key. */
export const accountBalanceOld = pgTable('account_balance_old', accountBalanceColumns(), (t) => [
  primaryKey({ name: 'account_balance__pk', columns: [t.consensusTimestamp, t.accountId] }),
]);

export const accountBalanceFile = pgTable(
  'account_balance_file',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    count: bigint('count', { mode: 'bigint' }).notNull(),
    loadStart: bigint('load_start', { mode: 'bigint' }).notNull(),
    loadEnd: bigint('load_end', { mode: 'bigint' }).notNull(),
    fileHash: varchar('file_hash', { length: 96 }),
    name: varchar('name', { length: 250 }).notNull(),
    bytes: bytea('bytes'),
    timeOffset: integer('time_offset').notNull().default(0),
    synthetic: boolean('synthetic').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'account_balance_file_pkey', columns: [t.consensusTimestamp] }),
    index('account_balance_file__name').on(t.name),
  ],
);

const tokenBalanceColumns = () => ({
  consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
  accountId: entityId('account_id').notNull(),
  balance: bigint('balance', { mode: 'bigint' }).notNull(),
  tokenId: entityId('token_id').notNull(),
});

/** Token balance snapshots, partitioned like `account_balance`. */
export const tokenBalance = pgTable('token_balance', tokenBalanceColumns(), (t) => [
  primaryKey({ name: 'token_balance_pkey', columns: [t.accountId, t.tokenId, t.consensusTimestamp] }),
  index('token_balance__token_account_timestamp').on(t.tokenId, t.accountId, t.consensusTimestamp),
]);

/** The reference's unpartitioned predecessor of `token_balance`, kept with the same name and key. */
export const tokenBalanceOld = pgTable('token_balance_old', tokenBalanceColumns(), (t) => [
  primaryKey({ name: 'token_balance__pk', columns: [t.consensusTimestamp, t.accountId, t.tokenId] }),
]);

export const reconciliationJob = pgTable(
  'reconciliation_job',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    count: bigint('count', { mode: 'bigint' }).notNull(),
    error: text('error').notNull().default(''),
    timestampEnd: timestamp('timestamp_end', { withTimezone: true }),
    timestampStart: timestamp('timestamp_start', { withTimezone: true }).notNull(),
    status: smallint('status').notNull(),
  },
  (t) => [primaryKey({ name: 'reconciliation_job_pkey', columns: [t.timestampStart] })],
);
