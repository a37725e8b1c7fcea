import { bigint, boolean, index, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { bytea } from './column-types.ts';

export const schedule = pgTable(
  'schedule',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    creatorAccountId: bigint('creator_account_id', { mode: 'bigint' }).notNull(),
    executedTimestamp: bigint('executed_timestamp', { mode: 'bigint' }),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    scheduleId: bigint('schedule_id', { mode: 'bigint' }).notNull(),
    transactionBody: bytea('transaction_body').notNull(),
    expirationTime: bigint('expiration_time', { mode: 'bigint' }),
    waitForExpiry: boolean('wait_for_expiry').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'schedule_pkey', columns: [t.scheduleId] }),
    index('schedule__creator_account_id').on(t.creatorAccountId.desc().nullsFirst()),
    // Not in the reference: a ScheduleCreate in a contract call looks for an identical schedule among those with the
    // same expiry (db/queries/evm-schedules.ts schedulesExpiringAt).
    index('schedule__expiration_time').on(t.expirationTime),
  ],
);
