import { describe, expect, it } from 'vitest';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import { ingestFixture } from '../testing/fixtures.ts';

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await ingestFixture(db.url, 'v6');
  },
  timeout: 180_000,
});

describe('the API over ingested v6 record files', () => {
  it('lists the ingested transactions', async () => {
    const response = await worker.get('/api/v1/transactions?order=asc');
    expect(response.status).toBe(200);
    expect(
      response.body.transactions.map((t: Record<string, unknown>) => [
        t.consensus_timestamp,
        t.name,
        t.result,
        t.nonce,
      ]),
    ).toEqual([
      ['1657701968.041986003', 'FILEUPDATE', 'SUCCESS', 0],
      ['1657701971.304284003', 'CONTRACTCALL', 'SUCCESS', 0],
      ['1657701971.304284004', 'CONTRACTCREATEINSTANCE', 'SUCCESS', 1],
    ]);
    const call = response.body.transactions[1];
    expect(call.transaction_id).toBe('0.0.2-1657701910-000000144');
    expect(call.transfers).toEqual([
      { account: '0.0.2', amount: -56493422, is_approval: false },
      { account: '0.0.98', amount: 56493422, is_approval: false },
    ]);
  });

  it('serves the record files as blocks', async () => {
    const list = await worker.get('/api/v1/blocks?order=asc');
    expect(list.status).toBe(200);
    expect(list.body.blocks.map((b: Record<string, unknown>) => [b.number, b.name, b.count])).toEqual([
      [5, '2022-07-13T08_46_08.041986003Z.rcd.gz', 1],
      [6, '2022-07-13T08_46_11.304284003Z.rcd.gz', 2],
    ]);
    const block = await worker.get('/api/v1/blocks/6');
    expect(block.status).toBe(200);
    expect(block.body).toMatchObject({
      number: 6,
      hash: '0x3064b824b8b9f9ece011f88a26c030c9f6b822f30fbcabcc7240a220ea42bbdbf305db415a4e41307d0630d5cefe4550',
      previous_hash:
        '0xa6c241fad2c636f68a6aa0da9293245a5ef0ebef345cd139858068ff7998716cefe0fd3afa0d21304725507061975279',
      timestamp: { from: '1657701971.304284003', to: '1657701971.304284004' },
      hapi_version: '0.28.0',
    });
  });

  it('shows the fee collector balance built from the ingested transfers', async () => {
    const response = await worker.get('/api/v1/accounts/0.0.98');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ account: '0.0.98', balance: { balance: 56493422 } });
  });

  it('finds a contract call result by its transaction hash', async () => {
    const response = await worker.get(
      '/api/v1/contracts/results/0x3af126ef15641b785e3edb5018209959fc6c6b063deaa55a3331c5489cdbe31b',
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ contract_id: '0.0.1002', gas_used: 800000, result: 'SUCCESS' });
    // The sidecar's storage changes of both contracts the call touched.
    expect(response.body.state_changes.map((c: Record<string, unknown>) => [c.contract_id, c.value_written])).toEqual([
      ['0.0.1002', '0x00000000000000000000000000000000000000000000000000000000000003eb'],
      ['0.0.1003', '0x0000000000000000000000000000000000000000000000000000000000000008'],
    ]);
  });
});
