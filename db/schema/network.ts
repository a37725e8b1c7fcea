import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, smallint, varchar } from 'drizzle-orm/pg-core';
import { bytea, entityId, int8range, nanosTimestamp } from './column-types.ts';

export const addressBook = pgTable(
  'address_book',
  {
    startConsensusTimestamp: nanosTimestamp('start_consensus_timestamp').notNull(),
    endConsensusTimestamp: nanosTimestamp('end_consensus_timestamp'),
    fileId: entityId('file_id').notNull(),
    nodeCount: integer('node_count'),
    fileData: bytea('file_data').notNull(),
  },
  (t) => [primaryKey({ name: 'address_book_pkey', columns: [t.startConsensusTimestamp] })],
);

export const addressBookEntry = pgTable(
  'address_book_entry',
  {
    consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
    memo: varchar('memo', { length: 128 }),
    publicKey: varchar('public_key', { length: 1024 }),
    nodeId: bigint('node_id', { mode: 'bigint' }).notNull(),
    nodeAccountId: entityId('node_account_id').notNull(),
    nodeCertHash: bytea('node_cert_hash'),
    description: varchar('description', { length: 100 }),
    stake: bigint('stake', { mode: 'bigint' }),
  },
  (t) => [
    primaryKey({ name: 'address_book_entry_pkey', columns: [t.consensusTimestamp, t.nodeId] }),
    index('address_book_entry__timestamp').on(t.consensusTimestamp),
  ],
);

export const addressBookServiceEndpoint = pgTable(
  'address_book_service_endpoint',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    ipAddressV4: varchar('ip_address_v4', { length: 15 }).notNull().default(''),
    nodeId: bigint('node_id', { mode: 'bigint' }).notNull(),
    port: integer('port').notNull(),
    domainName: varchar('domain_name', { length: 253 }).notNull().default(''),
  },
  (t) => [index('address_book_service_endpoint__timestamp_node_id').on(t.consensusTimestamp, t.nodeId)],
);

const nodeColumns = () => ({
  adminKey: bytea('admin_key'),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }),
  deleted: boolean('deleted').notNull().default(false),
  nodeId: bigint('node_id', { mode: 'bigint' }).notNull(),
  timestampRange: int8range('timestamp_range').notNull(),
  declineReward: boolean('decline_reward').notNull().default(false),
  grpcProxyEndpoint: jsonb('grpc_proxy_endpoint'),
  accountId: bigint('account_id', { mode: 'bigint' }),
  associatedRegisteredNodes: bigint('associated_registered_nodes', { mode: 'bigint' }).array(),
});

export const node = pgTable('node', nodeColumns(), (t) => [primaryKey({ name: 'node__pk', columns: [t.nodeId] })]);

export const nodeHistory = pgTable('node_history', nodeColumns());

const registeredNodeColumns = () => ({
  adminKey: bytea('admin_key'),
  createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }),
  deleted: boolean('deleted').notNull().default(false),
  description: varchar('description', { length: 100 }),
  registeredNodeId: bigint('registered_node_id', { mode: 'bigint' }).notNull(),
  serviceEndpoints: jsonb('service_endpoints'),
  timestampRange: int8range('timestamp_range').notNull(),
  type: smallint('type').array().notNull().default([]),
});

export const registeredNode = pgTable('registered_node', registeredNodeColumns(), (t) => [
  primaryKey({ name: 'registered_node__pk', columns: [t.registeredNodeId] }),
]);

export const registeredNodeHistory = pgTable('registered_node_history', registeredNodeColumns());

export const networkFreeze = pgTable(
  'network_freeze',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    endTime: bigint('end_time', { mode: 'bigint' }),
    fileHash: bytea('file_hash').notNull(),
    fileId: bigint('file_id', { mode: 'bigint' }),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    startTime: bigint('start_time', { mode: 'bigint' }).notNull(),
    type: smallint('type').notNull(),
  },
  (t) => [primaryKey({ name: 'network_freeze_pkey', columns: [t.consensusTimestamp] })],
);

export const ledger = pgTable(
  'ledger',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    historyProofVerificationKey: bytea('history_proof_verification_key').notNull(),
    ledgerId: bytea('ledger_id').notNull(),
    nodeContributions: jsonb('node_contributions').notNull(),
  },
  (t) => [primaryKey({ name: 'ledger_pkey', columns: [t.ledgerId] })],
);
