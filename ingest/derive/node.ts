/** Consensus nodes managed by transactions (HIP-869): NodeCreate / NodeUpdate / NodeDelete → `node`. */
import type protobuf from 'protobufjs';
import { hapi } from '../../proto/hapi.ts';
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

/**
 * The endpoint as the importer stores it; a default (empty) endpoint clears the column, which the importer writes
 * as port -1 and its upsert turns into NULL.
 */
function endpoint(e: PbServiceEndpoint): Record<string, unknown> | null {
  const empty = !e.domain_name && !e.ipAddressV4?.length && !e.port;
  if (empty) return null;
  return {
    domain_name: e.domain_name ?? '',
    ip_address_v4: e.ipAddressV4 && e.ipAddressV4.length === 4 ? e.ipAddressV4.join('.') : '',
    port: e.port ?? 0,
  };
}

function nodeColumns(body: NodeBody): { row: Record<string, unknown>; overwrite: string[] } {
  const row: Record<string, unknown> = {};
  const overwrite: string[] = [];
  const account = accountId(body.account_id);
  if (account !== 0n) row.account_id = account;
  if (body.admin_key) row.admin_key = body.admin_key;
  if (typeof body.decline_reward === 'boolean') row.decline_reward = body.decline_reward;
  else if (body.decline_reward) row.decline_reward = body.decline_reward.value ?? false;
  if (body.grpc_proxy_endpoint) {
    row.grpc_proxy_endpoint = endpoint(body.grpc_proxy_endpoint);
    if (row.grpc_proxy_endpoint === null) overwrite.push('grpc_proxy_endpoint');
  }
  const associated =
    body.associated_registered_node_list?.associated_registered_node ?? body.associated_registered_node;
  if (body.associated_registered_node_list || (associated && associated.length > 0))
    row.associated_registered_nodes = associated ?? [];
  return { row, overwrite };
}

/** Node transactions, failed ones too, keep their Transaction and record bytes (`transaction.bytes` in the API). */
export function nodeTransactionBytes(
  transaction: Record<string, unknown>,
  raw: { transaction: Uint8Array | protobuf.Message; record: Uint8Array | protobuf.Message },
): void {
  const types = hapi();
  const bytes = (value: Uint8Array | protobuf.Message, type: protobuf.Type) =>
    value instanceof Uint8Array ? value : type.encode(value).finish();
  transaction.transaction_bytes = bytes(raw.transaction, types.Transaction);
  transaction.transaction_record_bytes = bytes(raw.record, types.TransactionRecord);
}

export function nodeCreate(ctx: ItemContext): void {
  const { item } = ctx;
  const nodeId = item.record.receipt?.node_id;
  if (!item.successful || nodeId === undefined) return;
  const body = serviceBody<NodeBody>(ctx);
  const { row } = nodeColumns(body);
  ctx.rows.change(
    'node',
    {
      node_id: nodeId,
      created_timestamp: item.consensusTimestamp,
      deleted: false,
      decline_reward: false,
      associated_registered_nodes: [],
      ...row,
    },
    item.consensusTimestamp,
  );
}

export function nodeUpdate(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<NodeBody>(ctx);
  const { row, overwrite } = nodeColumns(body);
  // Nodes moved into state by a NodeUpdate (a child record, nonce > 0) instead of a NodeCreate start there.
  const migrated = (item.record.transactionID?.nonce ?? 0) > 0;
  ctx.rows.change(
    'node',
    {
      node_id: body.node_id ?? 0n,
      ...(migrated ? { created_timestamp: item.consensusTimestamp } : {}),
      deleted: false,
      ...row,
    },
    item.consensusTimestamp,
    true,
    overwrite.length > 0 ? overwrite : undefined,
  );
}
export function nodeDelete(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<NodeBody>(ctx);
  ctx.rows.change('node', { node_id: body.node_id ?? 0n, deleted: true }, ctx.item.consensusTimestamp);
}
