/**
 * The consensus nodes of the Rosetta API: the entries of the latest address book in one of two files (the preferred
 * one, or the other when the preferred one has none), each with its node's account and its service endpoints. The
 * Data API lists them as `/network/status` peers (rosetta/app/persistence/address_book_entry.go: 0.0.101 first,
 * endpoints `ip:port`); the Construction API sends transactions to them and picks a node account from them when no
 * nodes are configured (0.0.102 first, the book the SDKs keep their network from, endpoints `host:port` with the
 * domain name where the entry has one, else the IPv4 address).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

export interface AddressBookNodeRow extends Record<string, unknown> {
  node_id: string;
  node_account_id: string;
  /** `host:port,host:port` ordered by host and port; null without endpoints. */
  endpoints: string | null;
}

/** What names an endpoint's host: its IPv4 address, or its domain name where it has one. */
export type EndpointHost = 'ip' | 'domain-or-ip';

const HOST: Readonly<Record<EndpointHost, string>> = {
  ip: 'abse.ip_address_v4',
  'domain-or-ip': `coalesce(nullif(abse.domain_name, ''), abse.ip_address_v4)`,
};

/** The nodes of the latest address book of `files` (the preferred file's encoded id first), by node id. */
export function addressBookNodes(
  db: Database,
  files: readonly [bigint, bigint],
  endpointHost: EndpointHost,
): Promise<AddressBookNodeRow[]> {
  const [preferred, fallback] = files;
  const host = sql.raw(HOST[endpointHost]);
  return db.rows<AddressBookNodeRow>(sql`
    with books as (
      select file.id as file_id,
             (select max(start_consensus_timestamp) from address_book where file_id = file.id) as timestamp
        from (values (${preferred}::bigint), (${fallback}::bigint)) as file(id)
    ),
    entries as (
      select books.file_id, abe.node_id, coalesce(n.account_id, abe.node_account_id) as node_account_id,
             string_agg(${host} || ':' || abse.port::text, ',' order by ${host}, abse.port) as endpoints
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
