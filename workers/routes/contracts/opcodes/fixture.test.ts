/**
 * The contract call of the reference's v6 record files with sidecars, traced through the route. The files begin
 * after its payer 0.0.2 and its contract 0.0.1002 were created, so the ledger they make knows neither before the call
 * (nor 0.0.1002's code): the replay stops before the EVM, as the reference's does for a missing payer.
 */
import { describe, expect, it } from 'vitest';
import { ingestFixture } from '../../../../ingest/testing/fixtures.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';

const CALL_HASH = '0x3af126ef15641b785e3edb5018209959fc6c6b063deaa55a3331c5489cdbe31b';

const { db, worker } = registerWorkerSuite({
  seed: async (database) => {
    await ingestFixture(database.url, 'v6');
  },
  timeout: 180_000,
});

describe('the v6 sidecar fixture, traced', () => {
  it('finds its contract call by hash and answers the 400 of a payer missing from the ledger the files make', async () => {
    await worker.setState({
      config: { edge: { rateLimit: { enabled: false } }, web3: { opcode: { tracer: { enabled: true } } } },
    });
    // The importer first meets 0.0.2 in these files: its row begins after the state the replay reads.
    const payer = await db.sql.query<{ since: string }>(
      'select lower(timestamp_range)::text as since from entity where id = 2',
    );
    expect(BigInt(payer.rows[0]?.since ?? '0')).toBeGreaterThanOrEqual(1_657_701_968_041_986_003n);
    const response = await worker.get(`/api/v1/contracts/results/${CALL_HASH}/opcodes`, { 'accept-encoding': 'gzip' });
    expect([response.status, response.body]).toEqual([
      400,
      { _status: { messages: [{ message: 'PAYER_ACCOUNT_NOT_FOUND', detail: '', data: '0x' }] } },
    ]);
  });
});
