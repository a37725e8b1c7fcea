import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** The record file a contract call runs on. int8 columns are strings. */
export interface EvmBlockRow extends Record<string, unknown> {
  index: string;
  consensus_start: string;
  consensus_end: string;
  hash: string;
}

/**
 * Which record file: the newest (highest `consensus_end`, the reference's `latest`), the lowest index (`earliest`),
 * by index, or by a prefix of its hash (lowercase hex: 64 digits are a 32-byte EVM block hash, 96 the whole hash).
 */
export type EvmBlockKey =
  | { readonly latest: true }
  | { readonly earliest: true }
  | { readonly number: bigint }
  | { readonly hashPrefix: string };

const COLUMNS = sql`index, consensus_start, consensus_end, hash`;

function whereAndOrder(key: EvmBlockKey): SQL {
  if ('latest' in key) return sql`order by consensus_end desc`;
  if ('earliest' in key) return sql`order by index asc`;
  if ('number' in key) return sql`where index = ${key.number}`;
  // The hash index is in the "C" collation; a range, not `like 'prefix%'`, so one plan serves every prefix.
  if (key.hashPrefix.length === 96) return sql`where hash collate "C" = ${key.hashPrefix}`;
  return sql`where hash collate "C" >= ${key.hashPrefix} and hash collate "C" < ${`${key.hashPrefix}g`}`;
}

export async function evmBlock(db: Database, key: EvmBlockKey): Promise<EvmBlockRow | undefined> {
  const rows = await db.rows<EvmBlockRow>(sql`select ${COLUMNS} from record_file ${whereAndOrder(key)} limit 1`);
  return rows[0];
}
