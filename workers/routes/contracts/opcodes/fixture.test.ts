/**
 * The two contract transactions of the reference's v6 record files with sidecars (block 6), traced through the route.
 * Neither can be replayed from what the 20 files hold, so each asserts the reference's answer:
 * - The ContractCall to 0.0.1002 (payer 0.0.2): the files first name 0.0.2 in this very record, so its entity row
 *   begins at the call's timestamp and the state at timestamp - 1 ns has no payer. Even with one, 0.0.1002's runtime
 *   bytecode is in none of the 20 files (the sidecar carries only its state change; the bytecode record is
 *   0.0.1003's), so the code that created 0.0.1003 and wrote slot 0 cannot run.
 * - The ContractCreate of 0.0.1003: a synthetic child record of that call (nonce 1) with a gas limit of 0, because
 *   the creation ran inside the call's own frame. Replayed on its own it has no gas for the intrinsic cost.
 */
import { describe, expect, it } from 'vitest';
import { ingestFixture } from '../../../../ingest/testing/fixtures.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';

const CALL_HASH = '0x3af126ef15641b785e3edb5018209959fc6c6b063deaa55a3331c5489cdbe31b';
const CALL_TIMESTAMP = '1657701971304284003';
const CREATE_HASH = '0xae40c9cd4f8cf3f7b1ff708f0fb8491b71c1db918d37dcda3e3b1d396f1044e5';
const CREATE_TIMESTAMP = '1657701971304284004';

const { db, worker } = registerWorkerSuite({
  seed: async (database) => {
    await ingestFixture(database.url, 'v6');
  },
  timeout: 180_000,
});

const trace = async (hash: string) => {
  await worker.setState({
    config: {
      edge: { rateLimit: { enabled: false } },
      web3: { opcode: { tracer: { enabled: true } }, throttle: { opcodeRequestsPerSecond: 100_000 } },
    },
  });
  const response = await worker.get(`/api/v1/contracts/results/${hash}/opcodes`, { 'accept-encoding': 'gzip' });
  return [response.status, response.body];
};

const failure = (message: string) => ({ _status: { messages: [{ message, detail: '', data: '0x' }] } });

describe('the v6 sidecar fixture, traced', () => {
  it('answers the ContractCall with the 400 of a payer the ledger before it does not know', async () => {
    const payer = await db.sql.query<{ since: string }>(
      'select lower(timestamp_range)::text as since from entity where id = 2',
    );
    expect(payer.rows).toEqual([{ since: CALL_TIMESTAMP }]);
    const result = await db.sql.query(
      'select sender_id, payer_account_id, contract_id from contract_result where consensus_timestamp = $1',
      [CALL_TIMESTAMP],
    );
    expect(result.rows).toEqual([{ sender_id: '2', payer_account_id: '2', contract_id: '1002' }]);
    const code = await db.sql.query(
      'select (select count(*) from entity where id = 1002)::int as entities, ' +
        '(select count(*) from contract where id = 1002)::int as contracts',
    );
    expect(code.rows).toEqual([{ entities: 0, contracts: 0 }]);

    expect(await trace(CALL_HASH)).toEqual([400, failure('PAYER_ACCOUNT_NOT_FOUND')]);
  });

  it('answers the ContractCreate, a child of the call with no gas of its own, with INSUFFICIENT_GAS', async () => {
    const result = await db.sql.query(
      'select gas_limit, gas_used, transaction_nonce, sender_id from contract_result where consensus_timestamp = $1',
      [CREATE_TIMESTAMP],
    );
    expect(result.rows).toEqual([{ gas_limit: '0', gas_used: '0', transaction_nonce: 1, sender_id: '2' }]);
    const parent = await db.sql.query<{ created: string[] }>(
      'select created_contract_ids::text[] as created from contract_result where consensus_timestamp = $1',
      [CALL_TIMESTAMP],
    );
    expect(parent.rows).toEqual([{ created: ['1003'] }]);

    expect(await trace(CREATE_HASH)).toEqual([400, failure('INSUFFICIENT_GAS')]);
  });
});
