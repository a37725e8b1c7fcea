import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  varchar,
} from 'drizzle-orm/pg-core';
import { bytea, int8range } from './column-types.ts';

export const entityType = pgEnum('entity_type', [
  'UNKNOWN',
  'ACCOUNT',
  'CONTRACT',
  'FILE',
  'TOPIC',
  'TOKEN',
  'SCHEDULE',
]);

/**
 * Shared by `entity` and `entity_history`. As in every current/history pair of tables, `timestamp_range` is
 * `[valid from, valid until)`: open-ended on the current row, closed on the history rows it superseded.
 */
const entityColumns = () => ({
  autoRenewAccountId: bigint('auto_renew_account_id', { mode: 'bigint' }),
  autoRenewPeriod: bigint('auto_renew_period', { mode: 'bigint' }),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }),
  deleted: boolean('deleted'),
  expirationTimestamp: bigint('expiration_timestamp', { mode: 'bigint' }),
  id: bigint('id', { mode: 'bigint' }).notNull(),
  key: bytea('key'),
  memo: text('memo').notNull().default(''),
  num: bigint('num', { mode: 'bigint' }).notNull(),
  publicKey: varchar('public_key'),
  proxyAccountId: bigint('proxy_account_id', { mode: 'bigint' }),
  realm: bigint('realm', { mode: 'bigint' }).notNull(),
  shard: bigint('shard', { mode: 'bigint' }).notNull(),
  receiverSigRequired: boolean('receiver_sig_required'),
  maxAutomaticTokenAssociations: integer('max_automatic_token_associations'),
  timestampRange: int8range('timestamp_range').notNull(),
  type: entityType('type').notNull().default('UNKNOWN'),
  alias: bytea('alias'),
  ethereumNonce: bigint('ethereum_nonce', { mode: 'bigint' }).default(sql`0`),
  evmAddress: bytea('evm_address'),
  declineReward: boolean('decline_reward').notNull().default(false),
  stakedAccountId: bigint('staked_account_id', { mode: 'bigint' }),
  stakedNodeId: bigint('staked_node_id', { mode: 'bigint' }).default(sql`-1`),
  stakePeriodStart: bigint('stake_period_start', { mode: 'bigint' }).default(sql`-1`),
  obtainerId: bigint('obtainer_id', { mode: 'bigint' }),
  permanentRemoval: boolean('permanent_removal'),
  balance: bigint('balance', { mode: 'bigint' }),
  balanceTimestamp: bigint('balance_timestamp', { mode: 'bigint' }),
  delegationAddress: bytea('delegation_address'),
});

/** Accounts, contracts, files, topics, tokens and schedules at their latest state; `id` is the encoded entity id. */
export const entity = pgTable('entity', entityColumns(), (t) => [
  primaryKey({ name: 'entity_pkey', columns: [t.id] }),
  index('entity__type_id').on(t.type, t.id),
]);

export const entityHistory = pgTable('entity_history', entityColumns());

export const entityTransaction = pgTable(
  'entity_transaction',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    entityId: bigint('entity_id', { mode: 'bigint' }).notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    result: smallint('result').notNull(),
    type: smallint('type').notNull(),
  },
  (t) => [primaryKey({ name: 'entity_transaction_pkey', columns: [t.entityId, t.consensusTimestamp] })],
);
