/** Consensus nodes managed by transactions (HIP-869): NodeCreate / NodeUpdate / NodeDelete → `node`. */
import type { PbEntityId } from '../decode/types.ts';
import { accountId, type ItemContext, serviceBody } from './context.ts';

interface PbServiceEndpoint {
  ipAddressV4?: Uint8Array;
  port?: number;
  domain_name?: string;
}

interface NodeBody {
  node_id?: bigint;
  account_id?: PbEntityId;
  admin_key?: Uint8Array;
  decline_reward?: boolean | { value?: boolean };
  grpc_proxy_endpoint?: PbServiceEndpoint;
  associated_registered_node?: bigint[];
  associated_registered_node_list?: { associated_registered_node?: bigint[] };
}

function endpoint(e: PbServiceEndpoint): Record<string, unknown> {
  return {
    domain_name: e.domain_name ?? '',
    ip_address_v4: e.ipAddressV4 && e.ipAddressV4.length === 4 ? e.ipAddressV4.join('.') : '',
    port: e.port ?? 0,
  };
}

function nodeColumns(body: NodeBody): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (body.account_id) row.account_id = accountId(body.account_id);
  if (body.admin_key) row.admin_key = body.admin_key;
  if (typeof body.decline_reward === 'boolean') row.decline_reward = body.decline_reward;
  else if (body.decline_reward) row.decline_reward = body.decline_reward.value ?? false;
  if (body.grpc_proxy_endpoint) row.grpc_proxy_endpoint = endpoint(body.grpc_proxy_endpoint);
  const associated =
    body.associated_registered_node_list?.associated_registered_node ?? body.associated_registered_node;
  if (body.associated_registered_node_list || (associated && associated.length > 0))
    row.associated_registered_nodes = associated ?? [];
  return row;
}

export function nodeCreate(ctx: ItemContext): void {
  const { item } = ctx;
  const nodeId = item.record.receipt?.node_id;
  if (!item.successful || nodeId === undefined) return;
  const body = serviceBody<NodeBody>(ctx);
  ctx.rows.change(
    'node',
    {
      node_id: nodeId,
      created_timestamp: item.consensusTimestamp,
      deleted: false,
      decline_reward: false,
      ...nodeColumns(body),
    },
    item.consensusTimestamp,
  );
}

export function nodeUpdate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<NodeBody>(ctx);
  ctx.rows.change('node', { node_id: body.node_id ?? 0n, ...nodeColumns(body) }, ctx.item.consensusTimestamp);
}

export function nodeDelete(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<NodeBody>(ctx);
  ctx.rows.change('node', { node_id: body.node_id ?? 0n, deleted: true }, ctx.item.consensusTimestamp);
}
