import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { hexBytea } from './bytea.ts';
import { COMMITTED_END } from './committed-end.ts';
import { int8ArrayText } from './int8.ts';
import { limitOf } from './limit.ts';

/** A contract log with its contract's EVM address and its block. int8 columns are strings. */
export interface ContractLogRow extends Record<string, unknown> {
  bloom: Uint8Array;
  contract_id: string;
  consensus_timestamp: string;
  data: Uint8Array;
  index: number;
  root_contract_id: string | null;
  topic0: Uint8Array | null;
  topic1: Uint8Array | null;
  topic2: Uint8Array | null;
  topic3: Uint8Array | null;
  transaction_hash: Uint8Array | null;
  transaction_index: number | null;
  /** Null when the contract entity is unknown or has no EVM address. */
  evm_address: Uint8Array | null;
  rf_hash: string | null;
  rf_index: string | null;
  /** `COMMITTED_END` of the statement. */
  committed_end: string | null;
}

export type LogComparisonOperator = 'eq' | 'lt' | 'lte' | 'gt' | 'gte';

/** One bound of a page part: on the timestamp (nanoseconds) or on the log index (a number). */
export interface LogBound {
  column: 'consensus_timestamp' | 'index';
  operator: LogComparisonOperator;
  value: bigint | number;
}

export interface ContractLogsQuery {
  contractId?: bigint;
  /** Per topic, the values (hex digits without leading zero bytes) of which one must match; empty for any. */
  topics: readonly (readonly string[])[];
  /**
   * The page as a union of parts, each a conjunction of bounds (the reference's lower / inner / upper split of a
   * timestamp and index range); no parts means no bounds.
   */
  parts: readonly (readonly LogBound[])[];
  order: 'asc' | 'desc';
  limit: number;
  /** `query.maxRecordFileCloseInterval`: how far after the page's last log its block may close. */
  closeIntervalNs: bigint;
}

const OPERATORS: Readonly<Record<LogComparisonOperator, string>> = {
  eq: '=',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};

const LOG_COLUMNS = sql.raw(`cl.bloom, cl.contract_id, cl.consensus_timestamp, cl.data, cl.index, cl.root_contract_id,
  cl.topic0, cl.topic1, cl.topic2, cl.topic3, cl.transaction_hash, cl.transaction_index`);

const bound = ({ column, operator, value }: LogBound): SQL =>
  column === 'index'
    ? sql`cl.index ${sql.raw(OPERATORS[operator])} ${value}::numeric`
    : sql`cl.consensus_timestamp ${sql.raw(OPERATORS[operator])} ${BigInt(value)}`;

/**
 * A page of contract logs in (timestamp, index) order, each with its contract's EVM address and its block (the
 * first record file closing at or after it, if it also opened before it). Every part walks the primary key (or
 * `contract_log__contract_id_timestamp_index` for one contract) within its bounds and stops at the limit; topic
 * filters are checked on the rows the walk reaches. One statement.
 */
export function contractLogs(db: Database, query: ContractLogsQuery): Promise<ContractLogRow[]> {
  const shared: SQL[] = [];
  if (query.contractId !== undefined) shared.push(sql`cl.contract_id = ${query.contractId}`);
  query.topics.forEach((values, i) => {
    if (values.length === 0) return;
    const list = values.map(hexBytea);
    shared.push(sql`cl.${sql.raw(`topic${i}`)} in (${sql.join(list, sql`, `)})`);
  });
  const order = sql.raw(query.order);
  const orderBy = sql`order by consensus_timestamp ${order}, index ${order}`;
  const pageOrderBy = sql`order by page.consensus_timestamp ${order}, page.index ${order}`;
  const part = (bounds: readonly LogBound[]) => {
    const where = [...shared, ...bounds.map(bound)];
    return sql`select ${LOG_COLUMNS} from contract_log cl
      ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
      ${orderBy} limit ${limitOf(query.limit)}`;
  };
  const page =
    query.parts.length <= 1
      ? part(query.parts[0] ?? [])
      : sql`${sql.join(
          query.parts.map((bounds) => sql`(${part(bounds)})`),
          sql` union `,
        )} ${orderBy} limit ${limitOf(query.limit)}`;
  return logsWithBlocks(db, page, pageOrderBy, query.closeIntervalNs);
}

/**
 * The logs `page` selects, each with its contract's EVM address and its block: the first record file closing at or
 * after it (within `closeIntervalNs` of the page's last log), if it also opened before it.
 */
function logsWithBlocks(db: Database, page: SQL, orderBy: SQL, closeIntervalNs: bigint): Promise<ContractLogRow[]> {
  return db.rows<ContractLogRow>(sql`
    with page as (${page})
    select page.*, e.evm_address, rf.hash as rf_hash, rf.index as rf_index, ${COMMITTED_END} as committed_end
      from page
      left join entity e on e.id = page.contract_id
      left join lateral (
        select r.consensus_start, r.hash, r.index
          from record_file r
         where r.consensus_end >= page.consensus_timestamp
           and r.consensus_end <= (select max(consensus_timestamp) from page) + ${closeIntervalNs}
         order by r.consensus_end
         limit 1) rf on rf.consensus_start <= page.consensus_timestamp
     ${orderBy}`);
}

/**
 * Every log of the given contracts with a timestamp in `(after, upTo]`, in (timestamp, index) order, formatted
 * columns as `contractLogs` returns them: what the stream tail reads once per new range of record files for all of
 * its subscriptions together. The range is what the record files seen since the last read hold, a few seconds.
 */
export function contractLogsInRange(
  db: Database,
  query: { contractIds: readonly bigint[]; after: bigint; upTo: bigint; closeIntervalNs: bigint },
): Promise<ContractLogRow[]> {
  const page = sql`select ${LOG_COLUMNS} from contract_log cl
     where cl.contract_id = any(${int8ArrayText(query.contractIds)}::bigint[])
       and cl.consensus_timestamp > ${query.after} and cl.consensus_timestamp <= ${query.upTo}`;
  const orderBy = sql`order by page.consensus_timestamp, page.index`;
  return logsWithBlocks(db, page, orderBy, query.closeIntervalNs);
}

/**
 * The consensus timestamp of the first transaction (in `order`) with this hash (hex: a 32-byte Ethereum hash or a
 * 48-byte Hedera hash, matched in full) within the timestamp bounds, among the first `limit` rows of its hash
 * partition; undefined when none.
 */
export async function transactionTimestampByHash(
  db: Database,
  hash: string,
  bounds: readonly { operator: LogComparisonOperator; value: bigint }[],
  order: 'asc' | 'desc',
  limit: number,
): Promise<bigint | undefined> {
  const conditions = bounds.map(
    ({ operator, value }) => sql`consensus_timestamp ${sql.raw(OPERATORS[operator])} ${value}`,
  );
  const rows = await db.rows<{ consensus_timestamp: string; hash: string }>(sql`
    select consensus_timestamp, encode(hash, 'hex') as hash
      from get_transaction_info_by_hash(${hexBytea(hash.slice(0, 64))})
     ${conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}
     order by consensus_timestamp ${sql.raw(order)}
     limit ${limitOf(limit)}`);
  const full = hash.toLowerCase();
  const match = hash.length > 64 ? rows.find((row) => row.hash === full) : rows[0];
  return match ? BigInt(match.consensus_timestamp) : undefined;
}
