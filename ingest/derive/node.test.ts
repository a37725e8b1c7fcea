import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import type { ParsedRecordFile } from '../decode/record-file.ts';
import type { RecordItem } from '../decode/record-item.ts';
import { parsedRecordFile } from '../testing/parsed-record-file.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';
import { nodeCreate, nodeDelete, nodeUpdate } from './node.ts';
import { deriveRecordFile } from './record-file.ts';

function context(bodyName: string, body: unknown, receipt: unknown = {}): ItemContext {
  const item = {
    consensusTimestamp: 100n,
    successful: true,
    bodyName,
    body: { [bodyName]: body },
    record: { receipt },
  } as unknown as RecordItem;
  return { item, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
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
          associated_registered_nodes: [],
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
    expect(update.rows.changes.get('node')?.[0]?.row).toEqual({ node_id: 7n, deleted: false, decline_reward: true });
    const remove = context('nodeDelete', { node_id: 7n });
    nodeDelete(remove);
    expect(remove.rows.changes.get('node')?.[0]?.row).toEqual({ node_id: 7n, deleted: true });
  });

  it("clear the gRPC proxy with an empty endpoint, and start a node a migration's NodeUpdate brings", () => {
    const update = context('nodeUpdate', { node_id: 7n, grpc_proxy_endpoint: {}, account_id: { accountNum: 0n } });
    nodeUpdate(update);
    expect(update.rows.changes.get('node')?.[0]).toMatchObject({
      row: { node_id: 7n, deleted: false, grpc_proxy_endpoint: null },
      overwrite: ['grpc_proxy_endpoint'],
    });
    expect(update.rows.changes.get('node')?.[0]?.row).not.toHaveProperty('account_id');
    const migration = context('nodeUpdate', { node_id: 8n });
    (migration.item.record as { transactionID?: unknown }).transactionID = { nonce: 1 };
    nodeUpdate(migration);
    expect(migration.rows.changes.get('node')?.[0]?.row).toMatchObject({ node_id: 8n, created_timestamp: 100n });
  });
});

describe('the transaction row of a node transaction', () => {
  it('keeps the Transaction and record bytes, also when it failed', () => {
    const types = hapi();
    const transactionID = { accountID: { accountNum: 2 }, transactionValidStart: { seconds: 95 } };
    const bodyBytes = types.TransactionBody.encode(
      types.TransactionBody.fromObject({ transactionID, nodeDelete: { node_id: 3 } }),
    ).finish();
    const transaction = types.Transaction.encode(types.Transaction.fromObject({ bodyBytes })).finish();
    const record = types.TransactionRecord.encode(
      types.TransactionRecord.fromObject({
        consensusTimestamp: { seconds: 100 },
        transactionID,
        receipt: { status: 339 },
      }),
    ).finish();
    const file: ParsedRecordFile = parsedRecordFile([{ transaction, record }]);
    const row = deriveRecordFile(file, { index: 1n, loadStart: 0n, sidecars: [] }).rows.rows('transaction')[0];
    expect(row).toMatchObject({
      type: 56,
      result: 339,
      transaction_bytes: transaction,
      transaction_record_bytes: record,
    });
  });
});
