/**
 * Registered nodes (block nodes, mirror nodes, relays and other services a node operator lists):
 * RegisteredNodeCreate / Update / Delete → `registered_node`, as the importer's Registered*TransactionHandler write
 * it. `service_endpoints` is the jsonb the importer's mapper writes (snake_case, unset fields left out), `type` the
 * sorted distinct kinds of the endpoints (1 block node, 2 general service, 3 mirror node, 4 RPC relay).
 */
import type { ItemContext } from './context.ts';
import { serviceBody } from './context.ts';

interface PbRegisteredEndpoint {
  ip_address?: Uint8Array;
  domain_name?: string;
  port?: number;
  requires_tls?: boolean;
  block_node?: { endpoint_api?: number[] };
  mirror_node?: unknown;
  rpc_relay?: unknown;
  general_service?: { description?: string };
}

interface RegisteredNodeBody {
  registered_node_id?: bigint;
  admin_key?: Uint8Array;
  description?: string | { value?: string };
  service_endpoint?: PbRegisteredEndpoint[];
}

const BLOCK_NODE_APIS = ['OTHER', 'STATUS', 'PUBLISH', 'SUBSCRIBE_STREAM', 'STATE_PROOF'];

/** InetAddress.getHostAddress of 4 or 16 bytes; none for other lengths (the importer logs and leaves it out). */
function hostAddress(bytes: Uint8Array): string | undefined {
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.length !== 16) return undefined;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':');
}

function endpoint(e: PbRegisteredEndpoint): { json: Record<string, unknown>; type: number } {
  const json: Record<string, unknown> = {};
  let type = 0;
  if (e.block_node) {
    json.block_node = {
      endpoint_apis: (e.block_node.endpoint_api ?? []).map((a) => BLOCK_NODE_APIS[a] ?? 'UNRECOGNIZED'),
    };
    type = 1;
  } else if (e.general_service) {
    json.general_service = { description: e.general_service.description ?? '' };
    type = 2;
  } else if (e.mirror_node) {
    json.mirror_node = {};
    type = 3;
  } else if (e.rpc_relay) {
    json.rpc_relay = {};
    type = 4;
  }
  if (e.domain_name !== undefined) json.domain_name = e.domain_name;
  const ip = e.ip_address ? hostAddress(e.ip_address) : undefined;
  if (ip !== undefined) json.ip_address = ip;
  json.port = e.port ?? 0;
  json.requires_tls = e.requires_tls ?? false;
  return { json, type };
}

function endpointColumns(endpoints: readonly PbRegisteredEndpoint[]): Record<string, unknown> {
  const parsed = endpoints.map(endpoint);
  return {
    service_endpoints: parsed.map((p) => p.json),
    type: [...new Set(parsed.map((p) => p.type))].sort((a, b) => a - b),
  };
}

export function registeredNodeCreate(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<RegisteredNodeBody>(ctx);
  const ts = item.consensusTimestamp;
  ctx.rows.change(
    'registered_node',
    {
      registered_node_id:
        (item.record.receipt as { registered_node_id?: bigint } | undefined)?.registered_node_id ?? 0n,
      admin_key: body.admin_key ?? null,
      created_timestamp: ts,
      deleted: false,
      description: typeof body.description === 'string' ? body.description : '',
      ...endpointColumns(body.service_endpoint ?? []),
    },
    ts,
  );
}

export function registeredNodeUpdate(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<RegisteredNodeBody>(ctx);
  const row: Record<string, unknown> = { registered_node_id: body.registered_node_id ?? 0n, deleted: false };
  if (body.admin_key) row.admin_key = body.admin_key;
  if (body.description && typeof body.description === 'object') row.description = body.description.value ?? '';
  if (body.service_endpoint && body.service_endpoint.length > 0)
    Object.assign(row, endpointColumns(body.service_endpoint));
  ctx.rows.change('registered_node', row, item.consensusTimestamp);
}

export function registeredNodeDelete(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const id = serviceBody<RegisteredNodeBody>(ctx).registered_node_id ?? 0n;
  ctx.rows.change('registered_node', { registered_node_id: id, deleted: true }, item.consensusTimestamp);
}
