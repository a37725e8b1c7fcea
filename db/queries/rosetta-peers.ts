/**
 * The consensus nodes `/network/status` lists as peers (rosetta/app/persistence/address_book_entry.go): the
 * entries of the latest address book in file 0.0.101, or in 0.0.102 when 0.0.101 has none, each with its node's
 * account and its service endpoints (`ip:port`).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

export interface RosettaPeerRow extends Record<string, unknown> {
  node_id: string;
  node_account_id: string;
  /** `ip:port,ip:port` ordered by address and port; null without endpoints. */
  endpoints: string | null;
}

/** The peers of the latest address book of `files` (0.0.101's encoded id first, then 0.0.102's). */
export function rosettaPeers(db: Database, files: readonly [bigint, bigint]): Promise<RosettaPeerRow[]> {
  const [preferred, fallback] = files;
  return db.rows<RosettaPeerRow>(sql`
    with books as (
      select file.id as file_id,
             (select max(start_consensus_timestamp) from address_book where file_id = file.id) as timestamp
        from (values (${preferred}::bigint), (${fallback}::bigint)) as file(id)
    ),
    entries as (
      select books.file_id, abe.node_id, coalesce(n.account_id, abe.node_account_id) as node_account_id,
             string_agg(abse.ip_address_v4 || ':' || abse.port::text, ',' order by abse.ip_address_v4, abse.port)
               as endpoints
        from books
        join address_book_entry abe on abe.consensus_timestamp = books.timestamp
        left join node n on n.node_id = abe.node_id
        left join address_book_service_endpoint abse
          on abse.consensus_timestamp = books.timestamp and abse.node_id = abe.node_id
       group by books.file_id, abe.node_id, n.account_id, abe.node_account_id
    )
    select node_id, node_account_id, endpoints
      from entries
     where file_id = (select file_id from entries order by file_id = ${preferred}::bigint desc limit 1)
     order by node_id`);
}
