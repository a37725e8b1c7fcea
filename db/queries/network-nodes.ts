import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { limitOf } from './limit.ts';

export interface ServiceEndpointJson {
  domain_name: string;
  ip_address_v4: string;
  port: number | null;
}

/** A node of the address book with its stake and node record; int8 columns as strings. */
export interface NetworkNodeRow extends Record<string, unknown> {
  admin_key: Uint8Array | null;
  associated_registered_nodes: string[] | null;
  decline_reward: boolean | null;
  description: string | null;
  end_consensus_timestamp: string | null;
  file_id: string | null;
  grpc_proxy_endpoint: ServiceEndpointJson | null;
  max_stake: string | null;
  memo: string | null;
  min_stake: string | null;
  node_account_id: string | null;
  /** `0x`-prefixed (the column holds the hash as hex text). */
  node_cert_hash: string;
  node_id: string;
  /** `0x`-prefixed. */
  public_key: string;
  reward_rate_start: string | null;
  service_endpoints: ServiceEndpointJson[];
  stake: string | null;
  stake_not_rewarded: string | null;
  stake_rewarded: string | null;
  staking_period: string | null;
  start_consensus_timestamp: string | null;
}

export interface NetworkNodeQuery {
  /** Encoded id of the address book file (0.0.101 or 0.0.102). */
  fileId: bigint;
  /** Only these node ids; empty for any. */
  nodeIds: readonly bigint[];
  /** Inclusive node id bounds. */
  minNodeId: bigint;
  maxNodeId: bigint;
  order: 'asc' | 'desc';
  limit: number;
}

/**
 * The nodes of the latest address book of `fileId`, each with the stake of the latest staking period (-1 stakes
 * read as unknown) and its node record (account, admin key, gRPC proxy, associated registered nodes), in node id
 * order: one statement.
 */
export function networkNodes(db: Database, query: NetworkNodeQuery): Promise<NetworkNodeRow[]> {
  const conditions: SQL[] = [sql`e.node_id >= ${query.minNodeId}`, sql`e.node_id <= ${query.maxNodeId}`];
  if (query.nodeIds.length > 0) {
    conditions.push(
      sql`e.node_id in (${sql.join(
        query.nodeIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  return db.rows<NetworkNodeRow>(sql`
    with book as (
      select start_consensus_timestamp, end_consensus_timestamp, file_id
        from address_book
       where file_id = ${query.fileId}
       order by start_consensus_timestamp desc
       limit 1
    ), stake as (
      select node_id, max_stake, min_stake, reward_rate, stake, stake_not_rewarded, stake_rewarded, staking_period
        from node_stake
       where consensus_timestamp = (select max(consensus_timestamp) from node_stake)
    )
    select n.admin_key,
           n.associated_registered_nodes,
           n.decline_reward,
           e.description,
           b.end_consensus_timestamp,
           b.file_id,
           case when n.grpc_proxy_endpoint is not null
                then jsonb_build_object('domain_name', coalesce(n.grpc_proxy_endpoint->>'domain_name', ''),
                                        'ip_address_v4', coalesce(n.grpc_proxy_endpoint->>'ip_address_v4', ''),
                                        'port', (n.grpc_proxy_endpoint->>'port')::integer)
           end as grpc_proxy_endpoint,
           nullif(s.max_stake, -1) as max_stake,
           e.memo,
           nullif(s.min_stake, -1) as min_stake,
           coalesce(n.account_id, e.node_account_id) as node_account_id,
           case when e.node_cert_hash is null or e.node_cert_hash = ''::bytea then '0x'
                when left(convert_from(e.node_cert_hash, 'UTF8'), 2) = '0x' then convert_from(e.node_cert_hash, 'UTF8')
                else '0x' || convert_from(e.node_cert_hash, 'UTF8')
           end as node_cert_hash,
           e.node_id,
           case when e.public_key is null or e.public_key = '' then '0x'
                when left(e.public_key, 2) = '0x' then e.public_key
                else '0x' || e.public_key
           end as public_key,
           s.reward_rate as reward_rate_start,
           coalesce((select jsonb_agg(jsonb_build_object('domain_name', coalesce(se.domain_name, ''),
                                                         'ip_address_v4', coalesce(se.ip_address_v4, ''),
                                                         'port', se.port)
                                      order by se.ip_address_v4, se.port)
                       from address_book_service_endpoint se
                      where se.consensus_timestamp = e.consensus_timestamp and se.node_id = e.node_id),
                    '[]'::jsonb) as service_endpoints,
           s.stake,
           nullif(s.stake_not_rewarded, -1) as stake_not_rewarded,
           s.stake_rewarded,
           s.staking_period,
           b.start_consensus_timestamp
      from address_book_entry e
      join book b on b.start_consensus_timestamp = e.consensus_timestamp
      left join stake s on s.node_id = e.node_id
      left join node n on n.node_id = e.node_id
     where ${sql.join(conditions, sql` and `)}
     order by e.node_id ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}

/** A `registered_node` row; int8 columns as strings. */
export interface RegisteredNodeRow extends Record<string, unknown> {
  admin_key: Uint8Array | null;
  created_timestamp: string | null;
  description: string | null;
  registered_node_id: string;
  service_endpoints: unknown;
  timestamp_range: string;
}

export interface RegisteredNodeQuery {
  /** Inclusive registered node id bounds. */
  lower: bigint;
  upper: bigint;
  /** Only nodes that have an endpoint of this type (`registered_node.type` code). */
  type: number | undefined;
  order: 'asc' | 'desc';
  limit: number;
}

/** Registered nodes that are not deleted, in id order (primary key), optionally of one type (its GIN index). */
export function registeredNodes(db: Database, query: RegisteredNodeQuery): Promise<RegisteredNodeRow[]> {
  const typeCondition = query.type === undefined ? sql`` : sql` and type @> array[${query.type}]::smallint[]`;
  return db.rows<RegisteredNodeRow>(sql`
    select admin_key, created_timestamp, description, registered_node_id, service_endpoints,
           timestamp_range::text as timestamp_range
      from registered_node
     where registered_node_id >= ${query.lower}
       and registered_node_id <= ${query.upper}
       and deleted is false${typeCondition}
     order by registered_node_id ${sql.raw(query.order)}
     limit ${limitOf(query.limit)}`);
}
