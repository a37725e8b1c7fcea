import { proto } from '@hiero-ledger/proto';
import { describe, expect, it } from 'vitest';
import { insertRow } from '../../../../test/harness/factories.ts';
import {
  type BodyInput,
  ed25519Key,
  ed25519SigPair,
  genesisScheduleJson,
  postFees,
  type ScheduleJson,
  simpleFeeScheduleBytes,
  transactionBytes,
} from '../../../../test/harness/factories-fees.ts';
import { insertFileData } from '../../../../test/harness/factories-network.ts';
import { insertToken } from '../../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';

const SIMPLE_FEES_FILE = 113n;
const HOUR_MS = 3_600_000;
const genesis = genesisScheduleJson();
const extraFee = (name: string) => BigInt(genesis.extras.find((extra) => extra.name === name)?.fee ?? Number.NaN);
const NODE_BASE = BigInt(genesis.node.baseFee);
const MULTIPLIER = BigInt(genesis.network.multiplier);

const key = ed25519Key;
const fixedFee = { fixedFee: { amount: 100_000_000 }, feeCollectorAccountId: { accountNum: 98 } };

const { db, worker } = registerWorkerSuite();
const post = (body: Uint8Array | string | undefined, options?: { query?: string; contentType?: string }) =>
  postFees(worker.baseUrl, body, options);

let clockHours = 0;
/** Writes a new version of 0.0.113 and moves the Worker's clock past the ten minutes a schedule is kept. */
async function publishSchedule(schedule: ScheduleJson): Promise<void> {
  clockHours += 1;
  await insertFileData(db.sql, {
    consensus_timestamp: 1_700_000_000_000_000_000n + BigInt(clockHours),
    entity_id: SIMPLE_FEES_FILE,
    file_data: simpleFeeScheduleBytes(schedule),
  });
  await worker.setState({ fakeTime: new Date(Date.now() + clockHours * HOUR_MS).toISOString() });
}

/** The note's first vector: a memo and an empty transfer, no signatures, in the modern form. */
const bareTransfer = (signatures = 0, legacy = false): Uint8Array => {
  const bodyBytes = proto.TransactionBody.encode({ memo: 'test', cryptoTransfer: {} }).finish();
  const sigMap = signatures > 0 ? { sigPair: Array.from({ length: signatures }, (_, i) => ed25519SigPair(i)) } : null;
  if (legacy) return proto.Transaction.encode({ bodyBytes, sigMap }).finish();
  const signedTransactionBytes = proto.SignedTransaction.encode({ bodyBytes, sigMap }).finish();
  return proto.Transaction.encode({ signedTransactionBytes }).finish();
};

const badRequest = (detail: string) => ({ _status: { messages: [{ message: 'Bad Request', detail }] } });

const baseTransferEstimate = {
  high_volume_multiplier: 1,
  network: { multiplier: 9, subtotal: 900000 },
  node: { base: 100000, extras: [] },
  service: { base: 0, extras: [] },
  total: 1000000,
};

describe('POST /api/v1/network/fees without 0.0.113', () => {
  it('prices with the genesis schedule and, once decoded, runs no statement for an INTRINSIC estimate', async () => {
    expect(await post(bareTransfer())).toEqual({ status: 200, body: baseTransferEstimate });
    const before = worker.dbQueries;
    expect((await post(bareTransfer(2))).body.total).toBe(2000000);
    expect(worker.dbQueries).toBe(before);
  });

  it('uses a new version of 0.0.113 once the ten minutes have passed', async () => {
    await publishSchedule({ ...genesis, node: { ...genesis.node, baseFee: 200000 } });
    const res = await post(bareTransfer());
    expect(res.body.node.base).toBe(200000);
    expect(res.body.total).toBe(2000000);
    await publishSchedule(genesis);
    expect((await post(bareTransfer())).body.total).toBe(1000000);
  });
});

describe('POST /api/v1/network/fees with the genesis schedule in 0.0.113 (the design note, section 8)', () => {
  it('vector 1: an empty transfer costs the node base fee times ten, in both modes', async () => {
    expect(await post(bareTransfer())).toEqual({ status: 200, body: baseTransferEstimate });
    expect(await post(bareTransfer(), { query: '?mode=STATE' })).toEqual({ status: 200, body: baseTransferEstimate });
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
    expect(await post(bareTransfer(2))).toEqual({ status: 200, body: expected });
    expect(await post(bareTransfer(2, true))).toEqual({ status: 200, body: expected });
    expect((await post(bareTransfer(0, true))).body.total).toBe(1000000);
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

  it.each([
    [
      'ConsensusCreateTopic',
      20300000000,
      { consensusCreateTopic: { adminKey: key(1), submitKey: key(2), feeScheduleKey: key(3), customFees: [fixedFee] } },
    ],
    ['ConsensusDeleteTopic', 50000000, { consensusDeleteTopic: { topicID: { topicNum: 1234 } } }],
    [
      'ConsensusUpdateTopic',
      402200000,
      {
        consensusUpdateTopic: {
          topicID: { topicNum: 1234 },
          adminKey: key(1),
          submitKey: key(2),
          feeScheduleKey: key(3),
          feeExemptKeyList: { keys: [key(4), key(5)] },
        },
      },
    ],
    ['ContractCall', 0, { contractCall: { contractID: { contractNum: 1010 }, gas: 30_000 } }],
    [
      'ContractCreate',
      20000000000,
      {
        contractCreateInstance: {
          initcode: new Uint8Array(64),
          adminKey: key(1),
          gas: 100_000,
          hookCreationDetails: [{ hookId: 1 }],
        },
      },
    ],
    ['ContractDelete', 70000000, { contractDeleteInstance: { contractID: { contractNum: 1010 } } }],
    [
      'ContractUpdate',
      20260000000,
      {
        contractUpdateInstance: {
          contractID: { contractNum: 1010 },
          adminKey: key(1),
          hookCreationDetails: [{ hookId: 2 }],
          hookIdsToDelete: [1],
        },
      },
    ],
    ['CryptoCreate', 10500000000, { cryptoCreateAccount: { key: key(1), hookCreationDetails: [{ hookId: 1 }] } }],
    ['CryptoDelete', 50000000, { cryptoDelete: { deleteAccountID: { accountNum: 1001 } } }],
    [
      'CryptoTransfer',
      1000000,
      {
        cryptoTransfer: {
          transfers: {
            accountAmounts: [
              { accountID: { accountNum: 1001 }, amount: -1 },
              { accountID: { accountNum: 1002 }, amount: 1 },
            ],
          },
        },
      },
    ],
    [
      'CryptoUpdate',
      20002200000,
      {
        cryptoUpdateAccount: {
          accountIDToUpdate: { accountNum: 1001 },
          key: key(1),
          hookCreationDetails: [{ hookId: 3 }],
          hookIdsToDelete: [1],
        },
      },
    ],
    ['EthereumTransaction', 1000000, { ethereumTransaction: { ethereumData: new Uint8Array(120) } }],
    ['FileAppend', 500000000, { fileAppend: { fileID: { fileNum: 1500 }, contents: new Uint8Array(100) } }],
    ['FileCreate', 500000000, { fileCreate: { keys: { keys: [key(1)] }, contents: new Uint8Array(100) } }],
    [
      'FileUpdate',
      500000000,
      { fileUpdate: { fileID: { fileNum: 1500 }, keys: { keys: [key(1)] }, contents: new Uint8Array(100) } },
    ],
    ['FileDelete', 70000000, { fileDelete: { fileID: { fileNum: 1500 } } }],
    [
      'ScheduleCreate',
      100000000,
      { scheduleCreate: { scheduledTransactionBody: { cryptoDelete: {} }, adminKey: key(1) } },
    ],
    ['ScheduleDelete', 10000000, { scheduleDelete: { scheduleID: { scheduleNum: 1600 } } }],
    ['ScheduleSign', 10000000, { scheduleSign: { scheduleID: { scheduleNum: 1600 } } }],
    ['TokenAssociate', 500000000, { tokenAssociate: { account: { accountNum: 1001 }, tokens: [{ tokenNum: 5001 }] } }],
    [
      'TokenDissociate',
      500000000,
      { tokenDissociate: { account: { accountNum: 1001 }, tokens: [{ tokenNum: 5001 }] } },
    ],
    ['TokenBurn', 10000000, { tokenBurn: { token: { tokenNum: 5001 }, amount: 1 } }],
    [
      'TokenCreate',
      20700000000,
      {
        tokenCreation: {
          name: 'T',
          symbol: 'T',
          adminKey: key(1),
          kycKey: key(2),
          freezeKey: key(3),
          wipeKey: key(4),
          supplyKey: key(5),
          feeScheduleKey: key(6),
          pauseKey: key(7),
          metadataKey: key(8),
          customFees: [fixedFee],
        },
      },
    ],
    ['TokenDelete', 10000000, { tokenDeletion: { token: { tokenNum: 5001 } } }],
    ['TokenFreeze', 10000000, { tokenFreeze: { token: { tokenNum: 5001 } } }],
    ['TokenGrantKyc', 10000000, { tokenGrantKyc: { token: { tokenNum: 5001 } } }],
    ['TokenPause', 10000000, { tokenPause: { token: { tokenNum: 5001 } } }],
    ['TokenRevokeKyc', 10000000, { tokenRevokeKyc: { token: { tokenNum: 5001 } } }],
    ['TokenUnfreeze', 10000000, { tokenUnfreeze: { token: { tokenNum: 5001 } } }],
    ['TokenUnpause', 10000000, { tokenUnpause: { token: { tokenNum: 5001 } } }],
    ['TokenWipe', 10000000, { tokenWipe: { token: { tokenNum: 5001 }, amount: 1 } }],
    [
      'TokenMint',
      400000000,
      { tokenMint: { token: { tokenNum: 5002 }, metadata: [new Uint8Array(8), new Uint8Array(8)] } },
    ],
    [
      'TokenUpdate',
      710000000,
      {
        tokenUpdate: {
          token: { tokenNum: 5001 },
          adminKey: key(1),
          kycKey: key(2),
          freezeKey: key(3),
          wipeKey: key(4),
          supplyKey: key(5),
          feeScheduleKey: key(6),
          pauseKey: key(7),
          metadataKey: key(8),
        },
      },
    ],
    ['UtilPrng', 10000000, { utilPrng: {} }],
  ] as const)('vector 5: %s totals %d in both modes', async (_name, total, body) => {
    const bytes = transactionBytes(body as BodyInput);
    expect((await post(bytes)).body.total).toBe(total);
    expect((await post(bytes, { query: '?mode=STATE' })).body.total).toBe(total);
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

  it('answers 400 Unknown transaction type for a type without a fee calculator', async () => {
    const freeze = transactionBytes({ freeze: { freezeType: 1 } });
    expect(await post(freeze)).toEqual({ status: 400, body: badRequest('Unknown transaction type') });
  });

  it('answers 415 for a body sent without a content type', async () => {
    expect(await post(bareTransfer(), { contentType: '' })).toEqual({
      status: 415,
      body: {
        _status: {
          messages: [
            { message: 'Unsupported Media Type', detail: "Content-Type 'application/octet-stream' is not supported" },
          ],
        },
      },
    });
  });
});

describe('POST /api/v1/network/fees errors (vector 8)', () => {
  it('answers each bad request with the reference status and text', async () => {
    expect(await post(new Uint8Array())).toEqual({ status: 400, body: badRequest('Failed to read request') });
    expect(await post(bareTransfer(), { query: '?mode=invalid' })).toEqual({
      status: 400,
      body: badRequest("Failed to convert 'mode'"),
    });
    const random = Uint8Array.from({ length: 100 }, (_, i) => (i * 151 + 7) % 256);
    expect(await post(proto.Transaction.encode({ signedTransactionBytes: random }).finish())).toEqual({
      status: 400,
      body: badRequest('Unable to parse transaction'),
    });
    expect(await post(proto.Transaction.encode({ sigMap: { sigPair: [ed25519SigPair(1)] } }).finish())).toEqual({
      status: 400,
      body: badRequest('Transaction must contain body bytes or signed transaction bytes'),
    });
    const memoOnly = proto.Transaction.encode({
      signedTransactionBytes: proto.SignedTransaction.encode({
        bodyBytes: proto.TransactionBody.encode({ memo: 'only a memo' }).finish(),
      }).finish(),
    }).finish();
    expect(await post(memoOnly)).toEqual({ status: 400, body: badRequest('Unknown transaction type') });
    expect(await post(bareTransfer(), { contentType: 'application/json' })).toEqual({
      status: 415,
      body: {
        _status: {
          messages: [{ message: 'Unsupported Media Type', detail: "Content-Type 'application/json' is not supported" }],
        },
      },
    });
    expect(await post(bareTransfer(), { query: '?high_volume_throttle=-1' })).toEqual({
      status: 400,
      body: badRequest('highVolumeThrottle must be greater than or equal to 0'),
    });
    expect(await post(bareTransfer(), { query: '?high_volume_throttle=10001' })).toEqual({
      status: 400,
      body: badRequest('highVolumeThrottle must be less than or equal to 10000'),
    });
    expect(await post(bareTransfer(), { query: '?high_volume_throttle=lots' })).toEqual({
      status: 400,
      body: badRequest("Failed to convert 'high_volume_throttle'"),
    });
  });

  it('answers 413 for a body over the cap, whether declared or streamed', async () => {
    const huge = new Uint8Array(133_121);
    expect((await post(huge)).status).toBe(413);
  });

  it('answers 1,000 random and truncated bodies with 400, 413 or 415 only', async () => {
    let seed = 0x2545f491;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    const valid = transactionBytes({
      consensusSubmitMessage: { topicID: { topicNum: 1234 }, message: new Uint8Array(300).fill(7) },
    });
    const statuses = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      let body: Uint8Array;
      if (i % 2 === 0) body = Uint8Array.from({ length: next() % 400 }, () => next() & 0xff);
      else body = valid.subarray(0, next() % valid.length);
      const contentType = i % 97 === 0 ? 'text/plain' : 'application/x-protobuf';
      statuses.add((await post(i % 199 === 0 ? new Uint8Array(140_000) : body, { contentType })).status);
    }
    expect([...statuses].every((status) => status === 400 || status === 413 || status === 415)).toBe(true);
    expect(statuses.has(400)).toBe(true);
  });
});
