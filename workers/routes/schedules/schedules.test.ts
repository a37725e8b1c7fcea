import { describe, expect, it } from 'vitest';
import { insertRow, ns } from '../../../test/harness/factories.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const CREATED = ns('1700000000.000000001');
const ED25519_KEY = Buffer.from(`1220${'cd'.repeat(32)}`, 'hex');

async function insertSchedule(id: number, row: Record<string, unknown> = {}, entity = true): Promise<void> {
  await insertRow(db.sql, 'schedule', {
    consensus_timestamp: CREATED + BigInt(id),
    creator_account_id: 1001,
    payer_account_id: 1002,
    schedule_id: id,
    transaction_body: Buffer.from([1, 2, 3]),
    ...row,
  });
  if (entity) {
    await insertRow(db.sql, 'entity', {
      id,
      num: id,
      realm: 0,
      shard: 0,
      type: 'SCHEDULE',
      key: ED25519_KEY,
      memo: `schedule ${id}`,
      deleted: false,
      timestamp_range: `[${CREATED + BigInt(id)},)`,
    });
  }
}

const { db, worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertSchedule(2001, { executed_timestamp: CREATED + 100n });
    await insertSchedule(2002, { creator_account_id: 1005, expiration_time: ns('4000000000') });
    await insertSchedule(2003, {}, false);
    await insertRow(db.sql, 'transaction_signature', {
      consensus_timestamp: CREATED + 5n,
      entity_id: 2001,
      public_key_prefix: Buffer.from([1, 1]),
      signature: Buffer.alloc(64, 7),
      type: 3,
    });
    await insertRow(db.sql, 'transaction_signature', {
      consensus_timestamp: CREATED + 4n,
      entity_id: 2001,
      public_key_prefix: Buffer.from([2]),
      signature: Buffer.from([9]),
      type: 6,
    });
  },
});

describe('GET /api/v1/schedules/{scheduleId}', () => {
  it('returns the schedule with its signatures in consensus order, cached for an hour once executed', async () => {
    const res = await worker.get('/api/v1/schedules/0.0.2001');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.body).toMatchObject({
      admin_key: { _type: 'ED25519', key: 'cd'.repeat(32) },
      deleted: false,
      executed_timestamp: '1700000000.000000101',
      memo: 'schedule 2001',
      schedule_id: '0.0.2001',
      creator_account_id: '0.0.1001',
      payer_account_id: '0.0.1002',
      transaction_body: 'AQID',
      wait_for_expiry: false,
    });
    // Postgres' base64 wraps at 76 characters, and the reference answers with those line breaks.
    expect(res.body.signatures).toEqual([
      {
        consensus_timestamp: '1700000000.000000005',
        public_key_prefix: 'Ag==',
        signature: 'CQ==',
        type: 'ECDSA_SECP256K1',
      },
      {
        consensus_timestamp: '1700000000.000000006',
        public_key_prefix: 'AQE=',
        signature: `${Buffer.alloc(57, 7).toString('base64')}\n${Buffer.alloc(7, 7).toString('base64')}`,
        type: 'ED25519',
      },
    ]);
  });

  it('keeps the default cache time while a schedule may still execute', async () => {
    await worker.setState({ fakeTime: '2023-11-14T22:20:00Z' });
    const res = await worker.get('/api/v1/schedules/2002');
    await worker.setState({});
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
  });

  it('refuses query parameters and bad ids with the reference messages', async () => {
    expect((await worker.get('/api/v1/schedules/2001?limit=1')).body._status.messages).toEqual([
      { message: 'Unknown query parameter: limit' },
    ]);
    const bad = await worker.get('/api/v1/schedules/0x0000000000000000000000000000000000000001');
    expect(bad.status).toBe(400);
    expect(bad.body._status.messages).toEqual([{ message: 'Invalid parameter: scheduleid' }]);
  });

  it('answers 404 for an unknown schedule', async () => {
    expect((await worker.get('/api/v1/schedules/0.0.9')).status).toBe(404);
  });
});

describe('GET /api/v1/schedules', () => {
  it('pages by schedule id with a next link', async () => {
    const res = await worker.get('/api/v1/schedules?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=10');
    expect(res.body.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toEqual(['0.0.2001', '0.0.2002']);
    expect(res.body.links.next).toBe('/api/v1/schedules?limit=2&schedule.id=gt:0.0.2002');
    const page2 = await worker.get(res.body.links.next);
    expect(page2.body.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toEqual(['0.0.2003']);
    expect(page2.body.links.next).toBeNull();
  });

  it('leaves out entity fields of a schedule without an entity row, as the reference does', async () => {
    const res = await worker.get('/api/v1/schedules?schedule.id=2003');
    const [schedule] = res.body.schedules;
    expect(schedule.admin_key).toBeNull();
    expect(schedule).not.toHaveProperty('deleted');
    expect(schedule).not.toHaveProperty('memo');
  });

  it('filters by creator account in descending order', async () => {
    const res = await worker.get('/api/v1/schedules?account.id=ne:0.0.1005&order=desc');
    expect(res.body.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toEqual(['0.0.2003', '0.0.2001']);
  });

  it('reports invalid and unknown parameters', async () => {
    const res = await worker.get('/api/v1/schedules?schedule.id=x&foo=1');
    expect(res.status).toBe(400);
    expect(res.body._status.messages).toEqual([
      { message: 'Invalid parameter: schedule.id' },
      { message: 'Unknown query parameter: foo' },
    ]);
  });
});
