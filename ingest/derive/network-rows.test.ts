import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const db = useTestDatabase();

describe('network_freeze', () => {
  it("takes a freeze without start_time from the body's hours and minutes of the consensus day, ending the next day", async () => {
    const day = 18_500 * 86_400;
    await ingestItems(db.sql, [
      { at: day + 3600, body: { freeze: { startHour: 22, startMin: 30, endHour: 1, endMin: 15 } } },
    ]);
    const ns = (seconds: number) => (BigInt(seconds) * 1_000_000_000n).toString();
    expect(await rowsOf(db.sql, 'select start_time::text, end_time::text, file_id from network_freeze')).toEqual([
      { start_time: ns(day + 22 * 3600 + 30 * 60), end_time: ns(day + 86_400 + 3600 + 15 * 60), file_id: null },
    ]);
  });
});

describe('registered_node', () => {
  it('is created, updated and deleted with its endpoints as the importer writes them', async () => {
    await ingestItems(db.sql, [
      {
        at: 500,
        body: {
          registeredNodeCreate: {
            admin_key: { ed25519: Buffer.alloc(32, 1) },
            description: 'block node',
            service_endpoint: [
              {
                ip_address: Buffer.from([10, 0, 0, 1]),
                port: 8080,
                requires_tls: true,
                block_node: { endpoint_api: [1, 3] },
              },
              { domain_name: 'mirror.example', port: 443, mirror_node: {} },
            ],
          },
        },
        receipt: { registered_node_id: 7 },
      },
      { at: 501, body: { registeredNodeUpdate: { registered_node_id: 7, description: { value: 'renamed' } } } },
    ]);
    await ingestItems(db.sql, [{ at: 600, body: { registeredNodeDelete: { registered_node_id: 7 } } }]);
    expect(
      await rowsOf(
        db.sql,
        `select registered_node_id::int as id, description, deleted, service_endpoints, type, created_timestamp::text,
                admin_key is not null as admin
           from registered_node`,
      ),
    ).toEqual([
      {
        id: 7,
        description: 'renamed',
        deleted: true,
        service_endpoints: [
          {
            block_node: { endpoint_apis: ['STATUS', 'SUBSCRIBE_STREAM'] },
            ip_address: '10.0.0.1',
            port: 8080,
            requires_tls: true,
          },
          { domain_name: 'mirror.example', mirror_node: {}, port: 443, requires_tls: false },
        ],
        type: [1, 3],
        created_timestamp: `500${'0'.repeat(9)}`,
        admin: true,
      },
    ]);
    expect(await rowsOf(db.sql, 'select count(*)::int as n from registered_node_history')).toEqual([{ n: 2 }]);
  });
});
