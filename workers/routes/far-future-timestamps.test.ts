import { describe, expect, it } from 'vitest';
import { insertTransaction, ns } from '../../test/harness/factories.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';

// Ten digits of seconds pass every route's timestamp grammar, but in nanoseconds they overflow the int8 columns.
const FAR = '9999999999.999999999';

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertTransaction(db.sql, {
      consensus_timestamp: ns('1700000000.000000005'),
      payer_account_id: 1001n,
      valid_start_ns: ns('1700000000.000000001'),
    });
    await insertEntity(db.sql, 1001n, ns('1600000000'));
    await insertEntity(db.sql, 1002n, ns('1600000000'), { type: 'CONTRACT' });
  },
});

describe('timestamps beyond the int8 range', () => {
  it.each([
    [`/api/v1/transactions?timestamp=${FAR}`, 200],
    [`/api/v1/transactions?timestamp=lt:${FAR}`, 200],
    [`/api/v1/blocks?timestamp=lt:${FAR}`, 200],
    [`/api/v1/topics/0.0.1318/messages?timestamp=lt:${FAR}`, 200],
    [`/api/v1/accounts/0.0.1001/rewards?timestamp=lt:${FAR}`, 200],
    [`/api/v1/accounts/0.0.1001?timestamp=${FAR}`, 200],
    [`/api/v1/accounts/0.0.1001?timestamp=lte:${FAR}`, 200],
    [`/api/v1/contracts/0.0.1002?timestamp=${FAR}`, 200],
    [`/api/v1/contracts/0.0.1002?timestamp=gt:${FAR}`, 404],
    [`/api/v1/transactions/0.0.1001-9999999999-999999999`, 404],
  ])('%s answers %i, not a database error', async (path, status) => {
    const res = await worker.get(path);
    expect(res.status).toBe(status);
  });

  it('still finds the rows below such a bound', async () => {
    const res = await worker.get(`/api/v1/transactions?timestamp=lt:${FAR}`);
    expect(res.body.transactions.map((t: { consensus_timestamp: string }) => t.consensus_timestamp)).toEqual([
      '1700000000.000000005',
    ]);
  });
});
