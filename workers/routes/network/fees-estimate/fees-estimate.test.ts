import { describe, expect, it } from 'vitest';
import { insertRow } from '../../../../test/harness/factories.ts';
import {
  badRequest,
  bareTransferBytes,
  ed25519Key,
  FIRST_SCHEDULE_AT,
  genesisScheduleJson,
  insertSimpleFeeSchedule,
  registerFeeSuite,
  type ScheduleJson,
  transactionBytes,
} from '../../../../test/harness/factories-fees.ts';
import { insertToken } from '../../../../test/harness/factories-tokens.ts';

const HOUR_MS = 3_600_000;
const genesis = genesisScheduleJson();
const extraFee = (name: string) => BigInt(genesis.extras.find((extra) => extra.name === name)?.fee ?? Number.NaN);
const NODE_BASE = BigInt(genesis.node.baseFee);
const MULTIPLIER = BigInt(genesis.network.multiplier);

const { db, worker, post } = registerFeeSuite();

let clockHours = 0;
/** Writes a new version of 0.0.113 and moves the Worker's clock past the ten minutes a schedule is kept. */
async function publishSchedule(schedule: ScheduleJson): Promise<void> {
  clockHours += 1;
  await insertSimpleFeeSchedule(db.sql, FIRST_SCHEDULE_AT + BigInt(clockHours), schedule);
  await worker.setState({ fakeTime: new Date(Date.now() + clockHours * HOUR_MS).toISOString() });
}

const baseTransferEstimate = {
  high_volume_multiplier: 1,
  network: { multiplier: 9, subtotal: 900000 },
  node: { base: 100000, extras: [] },
  service: { base: 0, extras: [] },
  total: 1000000,
};

describe('POST /api/v1/network/fees without 0.0.113', () => {
  it('prices with the genesis schedule and, once decoded, runs no statement for an INTRINSIC estimate', async () => {
    expect(await post(bareTransferBytes())).toEqual({ status: 200, body: baseTransferEstimate });
    const before = worker.dbQueries;
    expect((await post(bareTransferBytes(2))).body.total).toBe(2000000);
    expect(worker.dbQueries).toBe(before);
  });

  it('uses a new version of 0.0.113 once the ten minutes have passed', async () => {
    await publishSchedule({ ...genesis, node: { ...genesis.node, baseFee: 200000 } });
    const res = await post(bareTransferBytes());
    expect(res.body.node.base).toBe(200000);
    expect(res.body.total).toBe(2000000);
    await publishSchedule(genesis);
    expect((await post(bareTransferBytes())).body.total).toBe(1000000);
  });
});

describe('POST /api/v1/network/fees with the genesis schedule in 0.0.113 (the design note, section 8)', () => {
  it('vector 1: an empty transfer costs the node base fee times ten, in both modes', async () => {
    expect(await post(bareTransferBytes())).toEqual({ status: 200, body: baseTransferEstimate });
    expect(await post(bareTransferBytes(), { query: '?mode=STATE' })).toEqual({
      status: 200,
      body: baseTransferEstimate,
    });
  });

  it('vector 2: a second signature is one SIGNATURES unit on the node fee, in modern and legacy form', async () => {
    const expected = {
      ...baseTransferEstimate,
      network: { multiplier: 9, subtotal: 1800000 },
      node: {
        base: 100000,
        extras: [{ charged: 1, count: 2, fee_per_unit: 100000, included: 1, name: 'SIGNATURES', subtotal: 100000 }],
      },
      total: 2000000,
    };
    expect(await post(bareTransferBytes(2))).toEqual({ status: 200, body: expected });
    expect(await post(bareTransferBytes(2, true))).toEqual({ status: 200, body: expected });
    expect((await post(bareTransferBytes(0, true))).body.total).toBe(1000000);
  });

  it('vector 3: CryptoDelete and CryptoCreate pay their service base fees, ContractCall pays nothing', async () => {
    const del = await post(transactionBytes({ cryptoDelete: { deleteAccountID: { accountNum: 1002 } } }));
    expect(del.body.service.base).toBe(49000000);
    expect(del.body.total).toBe(50000000);
    const create = await post(
      transactionBytes({
        cryptoCreateAccount: {
          key: ed25519Key(7),
          initialBalance: 100_000_000,
          autoRenewPeriod: { seconds: 7_776_000 },
          hookCreationDetails: [{ hookId: 1, extensionPoint: 0 }],
        },
      }),
    );
    expect(create.body.service.base).toBe(499000000);
    expect(create.body.total).toBe(10500000000);
    const call = await post(
      transactionBytes({
        contractCall: { contractID: { contractNum: 1010 }, gas: 100_000, functionParameters: new Uint8Array(68) },
      }),
    );
    expect(call.body).toMatchObject({ node: { base: 0 }, network: { multiplier: 0, subtotal: 0 }, total: 0 });
  });

  it('vector 4: a message pays 6800 tinycents a byte beyond 100, and a big transaction pays for its bytes', async () => {
    const topicID = { topicNum: 1234 };
    const sample = await post(transactionBytes({ consensusSubmitMessage: { topicID, message: new Uint8Array(128) } }));
    expect(sample.body.service).toEqual({
      base: 700000,
      extras: [
        {
          charged: 28,
          count: 128,
          fee_per_unit: 6800,
          included: 100,
          name: 'CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES',
          subtotal: 190400,
        },
      ],
    });
    expect(sample.body.total).toBe(1890400);

    const bytes = transactionBytes({ consensusSubmitMessage: { topicID, message: new Uint8Array(2000) } });
    const big = await post(bytes);
    const service = 700000n + (2000n - 100n) * extraFee('CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES');
    const processing = genesis.node.extras.find((extra) => extra.name === 'PROCESSING_BYTES');
    const node =
      NODE_BASE + (BigInt(bytes.length) - BigInt(processing?.includedCount ?? 0)) * extraFee('PROCESSING_BYTES');
    expect(big.body.node.extras).toEqual([
      expect.objectContaining({ name: 'PROCESSING_BYTES', count: bytes.length, included: processing?.includedCount }),
    ]);
    expect(BigInt(big.body.total)).toBe(node * (1n + MULTIPLIER) + service);
  });

  it('vector 6: STATE mode prices a message to a topic with custom fees, INTRINSIC does not know of them', async () => {
    await insertRow(db.sql, 'topic', { id: 4321n, created_timestamp: 1n, timestamp_range: '[1,)' });
    await insertRow(db.sql, 'custom_fee', {
      entity_id: 4321n,
      fixed_fees: JSON.stringify([{ amount: 10, collector_account_id: 98 }]),
      timestamp_range: '[1,)',
    });
    const bytes = transactionBytes({
      consensusSubmitMessage: { topicID: { topicNum: 4321 }, message: new Uint8Array(128) },
    });
    expect((await post(bytes)).body.total).toBe(1890400);
    expect((await post(bytes, { query: '?mode=STATE' })).body.total).toBe(500000000);
  });

  it('vector 6: a fungible token with custom fees costs 10000000 more to transfer in STATE mode', async () => {
    await insertToken(db.sql, 5001, 1n, { type: 'FUNGIBLE_COMMON' });
    await insertToken(db.sql, 5002, 1n, { type: 'FUNGIBLE_COMMON' });
    await insertRow(db.sql, 'custom_fee', {
      entity_id: 5002n,
      fractional_fees: JSON.stringify([{ numerator: 1, denominator: 100, collector_account_id: 98 }]),
      timestamp_range: '[1,)',
    });
    const transfer = (tokenNum: number) =>
      transactionBytes({
        cryptoTransfer: {
          tokenTransfers: [
            {
              token: { tokenNum },
              transfers: [
                { accountID: { accountNum: 1001 }, amount: -500 },
                { accountID: { accountNum: 1002 }, amount: 500 },
              ],
            },
          ],
        },
      });
    const plain = await post(transfer(5001), { query: '?mode=STATE' });
    const withFees = await post(transfer(5002), { query: '?mode=STATE' });
    expect(plain.body.service.extras).toEqual([
      { charged: 1, count: 1, fee_per_unit: 9000000, included: 0, name: 'TOKEN_TRANSFER_BASE', subtotal: 9000000 },
    ]);
    expect(withFees.body.total - plain.body.total).toBe(10000000);
  });

  it('vector 7: high volume pricing applies in STATE mode to a transaction that asks for it', async () => {
    const withRates = (maxMultiplier: number): ScheduleJson => ({
      ...genesis,
      services: genesis.services.map((service) => ({
        ...service,
        schedule: service.schedule.map((entry) =>
          entry.name === 'ConsensusCreateTopic' ? { ...entry, highVolumeRates: { maxMultiplier } } : entry,
        ),
      })),
    });
    await publishSchedule(withRates(100000));
    const topic = (highVolume: boolean) =>
      transactionBytes({ consensusCreateTopic: { adminKey: ed25519Key(3), memo: 'hv' }, highVolume });
    const at = async (query: string, highVolume = true) => (await post(topic(highVolume), { query })).body;

    expect((await at('?high_volume_throttle=10000')).high_volume_multiplier).toBe(1);
    const full = await at('?mode=STATE&high_volume_throttle=10000');
    expect(full.high_volume_multiplier).toBe(100);
    const service = 99000000n + extraFee('KEYS');
    expect(BigInt(full.total)).toBe((NODE_BASE * (1n + MULTIPLIER) + service) * 100n);
    const half = await at('?mode=STATE&high_volume_throttle=5000');
    expect(half.high_volume_multiplier).toBeGreaterThan(1);
    expect(half.high_volume_multiplier).toBeLessThan(100);
    expect((await at('?mode=STATE&high_volume_throttle=10000', false)).high_volume_multiplier).toBe(1);
    expect((await at('?mode=STATE')).high_volume_multiplier).toBe(1);

    await publishSchedule(withRates(50000));
    const http = await at('?mode=STATE&high_volume_throttle=10000');
    expect(http.high_volume_multiplier).toBe(50);
    expect(http.total).toBeGreaterThan(0);
    await publishSchedule(genesis);
  });
});

describe('POST /api/v1/network/fees beyond the vectors', () => {
  it('STATE mode counts each NFT moved, prices custom-fee NFTs at the custom-fee base, skips unknown tokens', async () => {
    await insertToken(db.sql, 6001, 1n, { type: 'NON_FUNGIBLE_UNIQUE' });
    await insertRow(db.sql, 'custom_fee', {
      entity_id: 6001n,
      royalty_fees: JSON.stringify([{ numerator: 5, denominator: 100, collector_account_id: 98 }]),
      timestamp_range: '[1,)',
    });
    const nft = (serial: number) => ({
      senderAccountID: { accountNum: 1001 },
      receiverAccountID: { accountNum: 1002 },
      serialNumber: serial,
    });
    const bytes = transactionBytes({
      cryptoTransfer: {
        tokenTransfers: [
          { token: { tokenNum: 6001 }, nftTransfers: [nft(1), nft(2), nft(3)] },
          { token: { tokenNum: 6999 }, nftTransfers: [nft(4)] },
        ],
      },
    });
    const res = await post(bytes, { query: '?mode=STATE' });
    expect(res.body.service.extras).toEqual([
      {
        charged: 1,
        count: 1,
        fee_per_unit: 19000000,
        included: 0,
        name: 'TOKEN_TRANSFER_BASE_CUSTOM_FEES',
        subtotal: 19000000,
      },
      { charged: 2, count: 3, fee_per_unit: 1000000, included: 1, name: 'TOKEN_TYPES', subtotal: 2000000 },
    ]);
  });

  it('answers 400 naming a transaction type the schedule has no entry for', async () => {
    await publishSchedule({
      ...genesis,
      services: genesis.services.map((service) => ({
        ...service,
        schedule: service.schedule.filter((entry) => entry.name !== 'UtilPrng'),
      })),
    });
    expect(await post(transactionBytes({ utilPrng: { range: 10 } }))).toEqual({
      status: 400,
      body: badRequest('No fee schedule entry for UtilPrng'),
    });
    await publishSchedule(genesis);
    expect((await post(transactionBytes({ utilPrng: { range: 10 } }))).body.total).toBe(10000000);
  });
});
