import type { NetworkNodeRow, RegisteredNodeRow, ServiceEndpointJson } from '../../../db/queries/network-nodes.ts';
import { keyObject } from '../../format/key.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';

const DAY_NS = 86_400_000_000_000n;

const serviceEndpoint = (endpoint: ServiceEndpointJson) => ({
  domain_name: endpoint.domain_name,
  ip_address_v4: endpoint.ip_address_v4,
  port: endpoint.port,
});

/** The day-long staking period that starts just after `stakingPeriod` (its last nanosecond). */
export function stakingPeriodRange(stakingPeriod: string | bigint): { from: string | null; to: string | null } {
  const from = BigInt(stakingPeriod) + 1n;
  return { from: timestampString(from), to: timestampString(from + DAY_NS) };
}

export function formatNetworkNode(row: NetworkNodeRow) {
  const start = row.start_consensus_timestamp;
  const end = row.end_consensus_timestamp;
  return {
    admin_key: keyObject(row.admin_key),
    associated_registered_nodes: (row.associated_registered_nodes ?? []).map((id) => BigInt(id)),
    decline_reward: row.decline_reward,
    description: row.description,
    file_id: entityId(row.file_id),
    grpc_proxy_endpoint: row.grpc_proxy_endpoint && serviceEndpoint(row.grpc_proxy_endpoint),
    max_stake: int64(row.max_stake),
    memo: row.memo,
    min_stake: int64(row.min_stake),
    node_account_id: entityId(row.node_account_id),
    node_id: BigInt(row.node_id),
    node_cert_hash: row.node_cert_hash,
    public_key: row.public_key,
    reward_rate_start: int64(row.reward_rate_start),
    service_endpoints: row.service_endpoints.map(serviceEndpoint),
    stake: int64(row.stake),
    stake_not_rewarded: int64(row.stake_not_rewarded),
    stake_rewarded: int64(row.stake_rewarded),
    staking_period: row.staking_period === null ? null : stakingPeriodRange(row.staking_period),
    timestamp: start === null && end === null ? null : { from: timestampString(start), to: timestampString(end) },
  };
}

/** `registered_node.type` codes and the API's names for them. */
export const REGISTERED_NODE_TYPES = ['UNKNOWN', 'BLOCK_NODE', 'GENERAL_SERVICE', 'MIRROR_NODE', 'RPC_RELAY'] as const;
export type RegisteredNodeType = (typeof REGISTERED_NODE_TYPES)[number];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const present = (value: unknown): boolean => value !== undefined && value !== null;

/** The first kind of endpoint a stored endpoint describes; one that describes none shows as a general service. */
function endpointType(endpoint: Json): Exclude<RegisteredNodeType, 'UNKNOWN'> {
  if (present(endpoint.block_node)) return 'BLOCK_NODE';
  if (present(endpoint.general_service)) return 'GENERAL_SERVICE';
  if (present(endpoint.mirror_node)) return 'MIRROR_NODE';
  if (present(endpoint.rpc_relay)) return 'RPC_RELAY';
  return 'GENERAL_SERVICE';
}

/** One stored endpoint (the importer's snake_case JSON, absent members omitted) in the API's shape. */
function registeredEndpoint(endpoint: Json) {
  const blockNode = endpoint.block_node;
  const general = endpoint.general_service;
  return {
    block_node: isObject(blockNode)
      ? { endpoint_apis: Array.isArray(blockNode.endpoint_apis) ? blockNode.endpoint_apis : [] }
      : null,
    domain_name: endpoint.domain_name ?? null,
    general_service: isObject(general) ? { description: general.description ?? null } : null,
    ip_address: endpoint.ip_address ?? null,
    mirror_node: present(endpoint.mirror_node) ? {} : null,
    port: endpoint.port ?? 0,
    requires_tls: endpoint.requires_tls ?? false,
    rpc_relay: present(endpoint.rpc_relay) ? {} : null,
    type: endpointType(endpoint),
  };
}

/** `[from,to)` text of an int8range as the API's `{from, to}` (either side null when unbounded). */
function rangeBounds(text: string): { from: string | null; to: string | null } {
  const match = /^[[(](-?\d*),(-?\d*)[\])]$/.exec(text);
  return {
    from: match?.[1] ? timestampString(match[1]) : null,
    to: match?.[2] ? timestampString(match[2]) : null,
  };
}

export function formatRegisteredNode(row: RegisteredNodeRow) {
  const endpoints = Array.isArray(row.service_endpoints) ? row.service_endpoints : [];
  return {
    admin_key: keyObject(row.admin_key),
    created_timestamp: timestampString(row.created_timestamp),
    description: row.description,
    registered_node_id: BigInt(row.registered_node_id),
    service_endpoints: endpoints.filter(isObject).map(registeredEndpoint),
    timestamp: rangeBounds(row.timestamp_range),
  };
}
