import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { bytea } from './column-types.ts';

export const recordFile = pgTable(
  'record_file',
  {
    name: varchar('name', { length: 250 }).notNull(),
    loadStart: bigint('load_start', { mode: 'bigint' }).notNull(),
    loadEnd: bigint('load_end', { mode: 'bigint' }).notNull(),
    hash: varchar('hash', { length: 96 }).notNull(),
    prevHash: varchar('prev_hash', { length: 96 }).notNull(),
    consensusStart: bigint('consensus_start', { mode: 'bigint' }).notNull(),
    consensusEnd: bigint('consensus_end', { mode: 'bigint' }).notNull(),
    count: bigint('count', { mode: 'bigint' }).notNull(),
    digestAlgorithm: integer('digest_algorithm').notNull(),
    hapiVersionMajor: integer('hapi_version_major'),
    hapiVersionMinor: integer('hapi_version_minor'),
    hapiVersionPatch: integer('hapi_version_patch'),
    version: integer('version').notNull(),
    fileHash: varchar('file_hash', { length: 96 }).notNull(),
    bytes: bytea('bytes'),
    index: bigint('index', { mode: 'bigint' }).notNull(),
    gasUsed: bigint('gas_used', { mode: 'bigint' }).default(sql`-1`),
    logsBloom: bytea('logs_bloom'),
    size: integer('size'),
    sidecarCount: integer('sidecar_count').notNull().default(0),
    softwareVersionMajor: integer('software_version_major'),
    softwareVersionMinor: integer('software_version_minor'),
    softwareVersionPatch: integer('software_version_patch'),
    roundStart: bigint('round_start', { mode: 'bigint' }),
    roundEnd: bigint('round_end', { mode: 'bigint' }),
    previousWrappedRecordBlockHash: bytea('previous_wrapped_record_block_hash'),
    wrappedRecordBlockHash: bytea('wrapped_record_block_hash'),
  },
  (t) => [primaryKey({ name: 'record_file_pkey', columns: [t.consensusEnd] }), index('record_file__index').on(t.index)],
);

export const sidecarFile = pgTable(
  'sidecar_file',
  {
    bytes: bytea('bytes'),
    count: integer('count'),
    consensusEnd: bigint('consensus_end', { mode: 'bigint' }).notNull(),
    hashAlgorithm: integer('hash_algorithm').notNull(),
    hash: bytea('hash').notNull(),
    id: integer('id').notNull(),
    name: varchar('name', { length: 250 }).notNull(),
    size: integer('size'),
    types: integer('types').array().notNull(),
  },
  (t) => [primaryKey({ name: 'sidecar_file_pkey', columns: [t.consensusEnd, t.id] })],
);
