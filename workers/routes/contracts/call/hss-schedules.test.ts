/**
 * HIP-1215 scheduled calls through the Worker in workerd: a schedule created in a call, found by a later signature
 * of the same call, a stored schedule a signature completes and executes, and the estimate of a schedule's creation.
 */
import { describe, expect, it } from 'vitest';
import { callOf, GENESIS, openWorkerDriver, SECOND, TESTNET_SETTINGS } from '../../../../test/harness/evm-session.ts';
import { insertRow } from '../../../../test/harness/factories.ts';
import { insertContract } from '../../../../test/harness/factories-contracts.ts';
import { HOLDER, latest, seedTokenLedger } from '../../../../test/harness/factories-evm-system.ts';
import { insertEntity } from '../../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { longZeroAddress } from '../../../evm/addresses.ts';
import { openSession } from '../../../evm/session.ts';
import { AbiArgs, address, bytes, encode, int } from '../../../evm/system/abi.ts';
import { hbarTransferBody } from '../../../evm/system/testing/schedule-bodies.ts';
import { calldata } from '../../../evm/system/testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from '../../../evm/system/testing/two-calls.ts';
import { resolveBlock } from './resolve-block.ts';

const CONTRACT = 1700n;
const TARGET = 1701n;
/** A stored schedule of a CryptoTransfer of 40 tinybars from CONTRACT to HOLDER, which CONTRACT pays. */
const TRANSFER_SCHEDULE = 1702n;

const { db, worker } = registerWorkerSuite({
  async seed({ sql }) {
    await seedTokenLedger(sql);
    await insertContract(
      sql,
      { id: CONTRACT, created_timestamp: GENESIS, balance: 1000n },
      { runtime_bytecode: Buffer.from(TWO_CALLS) },
    );
    await insertEntity(sql, TRANSFER_SCHEDULE, GENESIS, { type: 'SCHEDULE' });
    await insertRow(sql, 'schedule', {
      schedule_id: TRANSFER_SCHEDULE,
      consensus_timestamp: GENESIS,
      creator_account_id: CONTRACT,
      payer_account_id: CONTRACT,
      transaction_body: hbarTransferBody([
        [CONTRACT, -40n],
        [HOLDER, 40n],
      ]),
      expiration_time: latest.consensusStart + 3600n * SECOND,
    });
  },
});

const hex = (value: Uint8Array) => `0x${Buffer.from(value).toString('hex')}`;
const HSS = longZeroAddress(0x16bn);
const scheduleCall = calldata(
  'scheduleCall(address,uint256,uint256,uint64,bytes)',
  encode(
    address(longZeroAddress(TARGET)),
    int(latest.consensusStart / SECOND + 1800n),
    int(100_000n),
    int(0n),
    bytes(calldata('ping()')),
  ),
);

let clientNumber = 0;

async function post(request: object): Promise<{ status: number; result: string }> {
  await worker.setState({ config: { edge: { rateLimit: { enabled: false } } } });
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${++clientNumber}` },
    body: JSON.stringify(request),
  });
  const body = (await response.json()) as { result?: string };
  return { status: response.status, result: body.result ?? '' };
}

const words = (result: string) => new AbiArgs(Buffer.from(result.slice(2), 'hex'));

describe('HSS scheduled calls in POST /api/v1/contracts/call', () => {
  it('creates a schedule that a later authorizeSchedule of the same call finds signed by its creator', async () => {
    const created = await post({ from: hex(longZeroAddress(HOLDER)), to: hex(HSS), data: hex(scheduleCall) });
    expect(created.status).toBe(200);
    expect(words(created.result).int(0)).toBe(22n);
    const schedule = words(created.result).address(1);
    expect(schedule.some((byte) => byte !== 0)).toBe(true);
    const data = twoCalls(
      { to: HSS, data: scheduleCall },
      { to: HSS, data: calldata('authorizeSchedule(address)', encode(address(schedule))) },
    );
    const signed = await post({ to: hex(longZeroAddress(CONTRACT)), data: hex(data) });
    // The creating contract's ContractID key is already a signatory: NO_NEW_VALID_SIGNATURES (205).
    expect([signed.status, signed.result]).toEqual([200, `0x${'cd'.padStart(64, '0')}`]);
  });

  it('executes a stored schedule the contract’s authorizeSchedule completes, which a later signing of the call sees', async () => {
    const authorize = {
      to: HSS,
      data: calldata('authorizeSchedule(address)', encode(address(longZeroAddress(TRANSFER_SCHEDULE)))),
    };
    const twice = await post({ to: hex(longZeroAddress(CONTRACT)), data: hex(twoCalls(authorize, authorize)) });
    expect([twice.status, words(twice.result).int(0)]).toEqual([200, 213n]);
    // A later request finds it live again: HOLDER, whose key it does not need, adds no signature.
    const later = await post({ from: hex(longZeroAddress(HOLDER)), to: hex(HSS), data: hex(authorize.data) });
    expect([later.status, words(later.result).int(0)]).toEqual([200, 205n]);
  });

  it('runs a call scheduled on its payer’s signature at once when the creating contract pays', async () => {
    const execute = calldata(
      'executeCallOnPayerSignature(address,address,uint256,uint256,uint64,bytes)',
      encode(
        address(longZeroAddress(TARGET)),
        address(longZeroAddress(CONTRACT)),
        int(latest.consensusStart / SECOND + 60n),
        int(100_000n),
        int(0n),
        bytes(calldata('ping()')),
      ),
    );
    const created = await post({
      to: hex(longZeroAddress(CONTRACT)),
      data: hex(
        twoCalls(
          { to: HSS, data: execute },
          {
            to: HSS,
            data: calldata('authorizeSchedule(address)', encode(address(longZeroAddress(TRANSFER_SCHEDULE + 1n)))),
          },
        ),
      ),
    });
    expect([created.status, words(created.result).int(0)]).toEqual([200, 213n]);
  });

  it('estimates a schedule’s creation within 100-110% of the gas the call uses', async () => {
    const driver = await openWorkerDriver(db.url);
    try {
      const block = await resolveBlock(driver.db, { kind: 'latest' });
      if (!block) throw new Error('no block');
      const session = openSession({ db: driver.db, block, settings: TESTNET_SETTINGS });
      const outcome = await session.run(callOf(HSS, scheduleCall, { from: longZeroAddress(HOLDER) }));
      expect(outcome.ok).toBe(true);
      const request = { from: hex(longZeroAddress(HOLDER)), to: hex(HSS), data: hex(scheduleCall) };
      const estimate = BigInt((await post({ ...request, estimate: true })).result);
      expect(estimate * 100n).toBeGreaterThanOrEqual(outcome.gasUsed * 100n);
      expect(estimate * 100n).toBeLessThanOrEqual(outcome.gasUsed * 110n);
      expect((await post({ ...request, gas: Number(estimate) })).status).toBe(200);
    } finally {
      await driver.close();
    }
  });
});
