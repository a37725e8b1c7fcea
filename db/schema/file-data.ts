import { index, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { bytea, entityId, nanosTimestamp } from './column-types.ts';

export const fileData = pgTable(
  'file_data',
  {
    fileData: bytea('file_data'),
    consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
    entityId: entityId('entity_id').notNull(),
    transactionType: smallint('transaction_type').notNull(),
  },
  (t) => [
    primaryKey({ name: 'file_data_pkey', columns: [t.consensusTimestamp] }),
    index('file_data__id_timestamp').on(t.entityId, t.consensusTimestamp),
  ],
);
