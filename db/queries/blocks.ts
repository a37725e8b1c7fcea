import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { PreparedStatement } from '../prepared-statement.ts';
import { APPEND_ONLY, COMMITTED_BLOCK, COMMITTED_END } from './committed-end.ts';
import { limitOf } from './limit.ts';

/** A record file as the block routes format it. int8 columns are strings. */
export interface BlockFields extends Record<string, unknown> {
  count: string;
  hash: string;
  name: string;
  prev_hash: string;
  hapi_version_major: number | null;
  hapi_version_minor: number | null;
  hapi_version_patch: number | null;
  index: string;
  consensus_start: string;
  consensus_end: string;
  gas_used: string | null;
  logs_bloom: Uint8Array | null;
  size: number | null;
}

/** A block of a page, with `COMMITTED_END` and `COMMITTED_BLOCK` of the statement (null unless append-only). */
export interface BlockRow extends BlockFields {
  committed_end: string | null;
  committed_block: string | null;
}

/** A block found by number or hash, with `APPEND_ONLY` of the statement. */
export interface OneBlockRow extends BlockFields {
  append_only: boolean;
}

export type BlockComparison = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';

const SQL_OPERATOR: Record<BlockComparison, string> = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' };

export interface BlockCondition {
  /** `index` is the block number; `consensus_end` the block's timestamp. */
  column: 'index' | 'consensus_end';
  operator: BlockComparison;
  value: bigint;
}

export interface BlockListQuery {
  conditions: readonly BlockCondition[];
  /** The column the page walks: both are indexed. */
  orderBy: 'index' | 'consensus_end';
  order: 'asc' | 'desc';
  limit: number;
}

// `size` is only stored for newer record files; older ones have their bytes. The newest block's timestamp and
// number come with every row, from the same snapshot, for the routes' final answers (docs/adr/0045).
const FIELDS = sql`count, hash, name, prev_hash, hapi_version_major, hapi_version_minor, hapi_version_patch, index,
  consensus_start, consensus_end, gas_used, logs_bloom, coalesce(size, length(bytes)) as size`;
const COLUMNS = sql`${FIELDS}, ${COMMITTED_END} as committed_end, ${COMMITTED_BLOCK} as committed_block`;
/** A single block needs only the history's flag: the two newest-file reads cost Postgres a fifth more a lookup. */
const ONE_BLOCK_COLUMNS = sql`${FIELDS}, ${APPEND_ONLY} as append_only`;

export function listBlocks(db: Database, query: BlockListQuery): Promise<BlockRow[]> {
  const conditions: SQL[] = query.conditions.map(
    (c) => sql`${sql.raw(c.column)} ${sql.raw(SQL_OPERATOR[c.operator])} ${c.value}`,
  );
  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  return db.rows<BlockRow>(sql`
    select ${COLUMNS}
      from record_file
      ${where}
     order by ${sql.raw(query.orderBy)} ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}

/** A record file hash in hex: 48 bytes. */
const FULL_HASH_LENGTH = 96;

/** The block with this number. Exported for `npm run bench:floor`, whose floor Workers run the route's statement. */
export const BLOCK_BY_NUMBER = new PreparedStatement<{ number: bigint }>(
  sql`select ${ONE_BLOCK_COLUMNS} from record_file where index = ${sql.placeholder('number')} limit 1`,
);

/**
 * The hash index is in the "C" collation, so the conditions are too. A prefix is a range rather than `like
 * 'prefix%'`: a `like` pattern that is a parameter cannot be planned as an index range once for every value, so
 * Postgres would plan it again on each execution. Stored hashes are lowercase hex, all below `prefix || 'g'`.
 */
const BY_HASH = new PreparedStatement<{ hash: string }>(
  sql`select ${ONE_BLOCK_COLUMNS} from record_file where hash collate "C" = ${sql.placeholder('hash')} limit 1`,
);
const BY_HASH_PREFIX = new PreparedStatement<{ prefix: string; after: string }>(
  sql`select ${ONE_BLOCK_COLUMNS} from record_file
       where hash collate "C" >= ${sql.placeholder('prefix')} and hash collate "C" < ${sql.placeholder('after')}
       limit 1`,
);

/**
 * The block whose hash starts with `hashPrefix` (lowercase hex: a 32-byte EVM block hash is the first half of the
 * 48-byte record file hash), or with that number.
 */
export async function blockByHashOrNumber(
  db: Database,
  key: { hashPrefix: string } | { number: bigint },
): Promise<OneBlockRow | undefined> {
  const statement =
    'number' in key
      ? BLOCK_BY_NUMBER.bind({ number: key.number })
      : key.hashPrefix.length === FULL_HASH_LENGTH
        ? BY_HASH.bind({ hash: key.hashPrefix })
        : BY_HASH_PREFIX.bind({ prefix: key.hashPrefix, after: `${key.hashPrefix}g` });
  const rows = await db.rows<OneBlockRow>(statement);
  return rows[0];
}
