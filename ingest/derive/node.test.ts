import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';
import { nodeCreate, nodeDelete, nodeUpdate } from './node.ts';

function context(bodyName: string, body: unknown, receipt: unknown = {}): ItemContext {
  const item = {
    consensusTimestamp: 100n,
    successful: true,
    bodyName,
    body: { [bodyName]: body },
    record: { receipt },
  } as unknown as RecordItem;
  return { item, rows: new FileRows(), transaction: {}, hapiMinor: 60, createdInFile: new Set() };
}

describe('node transactions', () => {
  it('create a node with its account, key and gRPC proxy', () => {
    const ctx = context(
      'nodeCreate',
      {
        account_id: { accountNum: 800n },
        admin_key: new Uint8Array([1]),
        grpc_proxy_endpoint: { domain_name: 'proxy.example', port: 443 },
      },
      { node_id: 7n },
    );
    nodeCreate(ctx);
    expect(ctx.rows.changes.get('node')).toEqual([
      {
        row: {
          node_id: 7n,
          created_timestamp: 100n,
          deleted: false,
          decline_reward: false,
          account_id: 800n,
          admin_key: new Uint8Array([1]),
          grpc_proxy_endpoint: { domain_name: 'proxy.example', ip_address_v4: '', port: 443 },
        },
        timestamp: 100n,
        history: true,
      },
    ]);
  });

  it('update only what the body names, and delete by node id', () => {
    const update = context('nodeUpdate', { node_id: 7n, decline_reward: { value: true } });
    nodeUpdate(update);
    expect(update.rows.changes.get('node')?.[0]?.row).toEqual({ node_id: 7n, decline_reward: true });
    const remove = context('nodeDelete', { node_id: 7n });
    nodeDelete(remove);
    expect(remove.rows.changes.get('node')?.[0]?.row).toEqual({ node_id: 7n, deleted: true });
  });
});
