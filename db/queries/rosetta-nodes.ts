/**
 * The consensus nodes the Construction API sends transactions to and picks a node account from when no nodes are
 * configured: the entries of the latest address book in file 0.0.102 (the book the SDKs keep their network from), or
 * in 0.0.101 when 0.0.102 has none, each with its node's account and its service endpoints (`host:port`, the
 * domain name where the entry has one, else the IPv4 address).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

export interface RosettaNodeRow extends Record<string, unknown> {
  node_account_id: string;
  /** `host:port,host:port` ordered by host and port; null without endpoints. */
  endpoints: string | null;
}

/** The nodes of the latest address book of `files` (0.0.102's encoded id first, then 0.0.101's), by node id. */
export function rosettaNodes(db: Database, files: readonly [bigint, bigint]): Promise<RosettaNodeRow[]> {
  const [preferred, fallback] = files;
  return db.rows<RosettaNodeRow>(sql`
    with books as (
      select file.id as file_id,
             (select max(start_consensus_timestamp) from address_book where file_id = file.id) as timestamp
        from (values (${preferred}::bigint), (${fallback}::bigint)) as file(id)
    ),
    entries as (
      select books.file_id, abe.node_id, coalesce(n.account_id, abe.node_account_id) as node_account_id,
             string_agg(coalesce(nullif(abse.domain_name, ''), abse.ip_address_v4) || ':' || abse.port::text, ','
                        order by coalesce(nullif(abse.domain_name, ''), abse.ip_address_v4), abse.port) as endpoints
        from books
        join address_book_entry abe on abe.consensus_timestamp = books.timestamp
        left join node n on n.node_id = abe.node_id
        left join address_book_service_endpoint abse
          on abse.consensus_timestamp = books.timestamp and abse.node_id = abe.node_id
       group by books.file_id, abe.node_id, n.account_id, abe.node_account_id
    )
    select node_account_id, endpoints
      from entries
     where file_id = (select file_id from entries order by file_id = ${preferred}::bigint desc limit 1)
     order by node_id`);
}
