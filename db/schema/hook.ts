import { bigint, boolean, pgEnum, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { bytea, int8range } from './column-types.ts';

export const hookType = pgEnum('hook_type', ['EVM']);

export const hookExtensionPoint = pgEnum('hook_extension_point', ['ACCOUNT_ALLOWANCE_HOOK']);

const hookColumns = () => ({
  contractId: bigint('contract_id', { mode: 'bigint' }),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }),
  hookId: bigint('hook_id', { mode: 'bigint' }).notNull(),
  ownerId: bigint('owner_id', { mode: 'bigint' }).notNull(),
  timestampRange: int8range('timestamp_range'),
  extensionPoint: hookExtensionPoint('extension_point').notNull().default('ACCOUNT_ALLOWANCE_HOOK'),
  deleted: boolean('deleted').notNull().default(false),
  adminKey: bytea('admin_key'),
  type: hookType('type').notNull().default('EVM'),
});

export const hook = pgTable('hook', hookColumns(), (t) => [
  primaryKey({ name: 'hook_pkey', columns: [t.ownerId, t.hookId] }),
]);

export const hookHistory = pgTable('hook_history', hookColumns());

export const hookStorage = pgTable(
  'hook_storage',
  {
    createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }).notNull(),
    hookId: bigint('hook_id', { mode: 'bigint' }).notNull(),
    modifiedTimestamp: bigint('modified_timestamp', { mode: 'bigint' }).notNull(),
    ownerId: bigint('owner_id', { mode: 'bigint' }).notNull(),
    key: bytea('key').notNull(),
    value: bytea('value').notNull(),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [primaryKey({ name: 'hook_storage_pkey', columns: [t.ownerId, t.hookId, t.key] })],
);

export const hookStorageChange = pgTable(
  'hook_storage_change',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    hookId: bigint('hook_id', { mode: 'bigint' }).notNull(),
    ownerId: bigint('owner_id', { mode: 'bigint' }).notNull(),
    key: bytea('key').notNull(),
    valueRead: bytea('value_read').notNull(),
    valueWritten: bytea('value_written'),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'hook_storage_change_pkey', columns: [t.ownerId, t.hookId, t.key, t.consensusTimestamp] }),
  ],
);
