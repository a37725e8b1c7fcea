import type * as grpc from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorTypes } from '../proto/mirror.ts';
import { freePort } from '../scripts/local-stack/free-port.ts';
import { insertRow } from '../test/harness/factories.ts';
import {
  insertAddressBook,
  insertAddressBookEntry,
  insertNodeStake,
  insertServiceEndpoint,
} from '../test/harness/factories-network.ts';
import { insertEntity } from '../test/harness/factories-tokens.ts';
import { insertTopicMessage } from '../test/harness/factories-topics.ts';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { type MirrorClient, mirrorClient, type ProtoObject } from './client.ts';
import { type GrpcServer, startGrpcServer } from './server.ts';
import { readGrpcSettings } from './settings.ts';

const TOPIC = 1001n;
const ACCOUNT = 1002n;
const SECOND = 1_000_000_000n;
/** The first stored message: a minute ago, so that live ones (now) come after every stored one. */
const T0 = (BigInt(Date.now()) - 60_000n) * 1_000_000n;

let database: TestDatabase;
let server: GrpcServer;
let client: MirrorClient;

interface Collected {
  messages: ProtoObject[];
  error?: grpc.ServiceError;
}

function collect(stream: grpc.ClientReadableStream<ProtoObject>, until?: (messages: ProtoObject[]) => boolean) {
  return new Promise<Collected>((resolve) => {
    const messages: ProtoObject[] = [];
    stream.on('data', (message: ProtoObject) => {
      messages.push(message);
      if (until?.(messages)) {
        stream.cancel();
        resolve({ messages });
      }
    });
    stream.on('error', (error: grpc.ServiceError) => resolve({ messages, error }));
    stream.on('end', () => resolve({ messages }));
  });
}

const sequenceNumbers = (messages: ProtoObject[]) => messages.map((message) => Number(message.sequenceNumber));
const seconds = (ns: bigint) => ({ seconds: String(ns / SECOND), nanos: Number(ns % SECOND) });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function insertMessages(from: number, to: number, firstTimestamp: bigint) {
  for (const n of range(from, to)) {
    await insertTopicMessage(database.sql, {
      topic_id: TOPIC,
      sequence_number: n,
      consensus_timestamp: firstTimestamp + BigInt(n - from) * 1000n,
      message: Buffer.from(`message ${n}`),
    });
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  await insertEntity(database.sql, TOPIC, 1n, { type: 'TOPIC' });
  await insertEntity(database.sql, ACCOUNT, 1n);
  await insertMessages(1, 40, T0);
  const read = readGrpcSettings({
    HIERO_MIRROR_GRPC_PORT: '0',
    HIERO_MIRROR_GRPC_LISTENER_INTERVAL: '50ms',
    HIERO_MIRROR_GRPC_RETRIEVER_MAXPAGESIZE: '32',
    HIERO_MIRROR_GRPC_RETRIEVER_POLLINGFREQUENCY: '10ms',
    HIERO_MIRROR_GRPC_ADDRESSBOOK_PAGESIZE: '2',
    HIERO_MIRROR_GRPC_ADDRESSBOOK_PAGEDELAY: '100ms',
  });
  if ('errors' in read) throw new Error(read.errors.join('; '));
  server = await startGrpcServer({
    databaseUrl: database.url,
    settings: read.settings,
    host: '127.0.0.1',
    log: () => {},
  });
  client = mirrorClient(server.address);
});

afterAll(async () => {
  client?.close();
  await server?.close();
  await database?.drop();
});

describe('ConsensusService.subscribeTopic', () => {
  it('sends the stored messages from the start time in pages, then ends at the limit', async () => {
    const { messages, error } = await collect(
      client.subscribeTopic({
        topicID: { topicNum: String(TOPIC) },
        consensusStartTime: seconds(T0 + 2000n),
        limit: 35,
      }),
    );
    expect(error).toBeUndefined();
    expect(sequenceNumbers(messages)).toEqual(range(3, 37));
    expect(messages[0]).toMatchObject({
      consensusTimestamp: seconds(T0 + 2000n),
      message: Buffer.from('message 3'),
      runningHash: Buffer.from('running_hash'),
      runningHashVersion: '2',
    });
  });

  it('goes on from the stored messages to the ones written later, in order, none missing or repeated', async () => {
    const done = collect(
      client.subscribeTopic({ topicID: { topicNum: String(TOPIC) }, consensusStartTime: seconds(T0) }),
      (messages) => messages.length >= 50,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = BigInt(Date.now()) * 1_000_000n;
    await insertMessages(41, 45, now);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await insertMessages(46, 50, now + SECOND);
    const { messages, error } = await done;
    expect(error).toBeUndefined();
    expect(sequenceNumbers(messages)).toEqual(range(1, 50));
  });

  it('ends after the stored messages when the end time has passed', async () => {
    const { messages, error } = await collect(
      client.subscribeTopic({
        topicID: { topicNum: String(TOPIC) },
        consensusStartTime: seconds(T0),
        consensusEndTime: seconds(T0 + 10_000n),
      }),
    );
    expect(error).toBeUndefined();
    expect(sequenceNumbers(messages)).toEqual(range(1, 10));
  });

  it('gives chunks their chunk info, the initial transaction id stored or made of payer and valid start', async () => {
    const topic = 1003n;
    await insertEntity(database.sql, topic, 1n, { type: 'TOPIC' });
    const initial = mirrorTypes()
      .TransactionID.encode({ accountID: { accountNum: 77 }, transactionValidStart: { seconds: 5, nanos: 6 } })
      .finish();
    const chunk = { topic_id: topic, chunk_total: 2, payer_account_id: 88n, valid_start_timestamp: 7n * SECOND + 8n };
    await insertTopicMessage(database.sql, {
      ...chunk,
      sequence_number: 1,
      consensus_timestamp: T0,
      chunk_num: 1,
      initial_transaction_id: Buffer.from(initial),
    });
    await insertTopicMessage(database.sql, {
      ...chunk,
      sequence_number: 2,
      consensus_timestamp: T0 + 1n,
      chunk_num: 2,
    });
    await insertTopicMessage(database.sql, {
      topic_id: topic,
      sequence_number: 3,
      consensus_timestamp: T0 + 2n,
      running_hash_version: null,
    });
    const { messages } = await collect(
      client.subscribeTopic({ topicID: { topicNum: String(topic) }, consensusStartTime: seconds(T0), limit: 3 }),
    );
    expect(messages.map((message) => message.chunkInfo)).toEqual([
      {
        number: 1,
        total: 2,
        initialTransactionID: { accountID: { accountNum: '77' }, transactionValidStart: { seconds: '5', nanos: 6 } },
      },
      {
        number: 2,
        total: 2,
        initialTransactionID: { accountID: { accountNum: '88' }, transactionValidStart: { seconds: '7', nanos: 8 } },
      },
      undefined,
    ]);
    expect(messages[2]?.runningHashVersion).toBe('3');
  });

  it.each([
    [{}, status.INVALID_ARGUMENT, 'subscribeTopic.filter.topicId: must not be null'],
    [{ topicID: { topicNum: '-1' } }, status.INVALID_ARGUMENT, 'Invalid entity ID: 0.0.-1'],
    [
      { topicID: { topicNum: String(TOPIC) }, limit: '18446744073709551615' },
      status.INVALID_ARGUMENT,
      'subscribeTopic.filter.limit: must be greater than or equal to 0',
    ],
    [
      {
        topicID: { topicNum: String(TOPIC) },
        consensusStartTime: { seconds: '10' },
        consensusEndTime: { seconds: '5' },
      },
      status.INVALID_ARGUMENT,
      'subscribeTopic.filter.validEndTime: End time must be after start time',
    ],
    [
      { topicID: { topicNum: String(TOPIC) }, consensusStartTime: { seconds: String(Date.now() / 1000 + 3600) } },
      status.INVALID_ARGUMENT,
      'subscribeTopic.filter.validStartTime: Start time must be before the current time',
    ],
    [{ topicID: { topicNum: '999' } }, status.NOT_FOUND, '0.0.999 does not exist'],
    [{ topicID: { topicNum: String(ACCOUNT) } }, status.INVALID_ARGUMENT, 'Not a valid topic'],
  ])('refuses %j with the reference status and message', async (query, code, details) => {
    const { messages, error } = await collect(client.subscribeTopic(query));
    expect(messages).toEqual([]);
    expect({ code: error?.code, details: error?.details }).toEqual({ code, details });
  });

  it('polls the database once per interval however many clients follow a topic', async () => {
    const clients = range(1, 4).map(() => mirrorClient(server.address));
    const streams = clients.flatMap((each) =>
      range(1, 5).map(() => {
        const stream = each.subscribeTopic({ topicID: { topicNum: String(TOPIC) } });
        stream.on('error', () => {});
        return stream;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = server.tail.polls;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const polls = server.tail.polls - before;
    for (const stream of streams) stream.cancel();
    for (const each of clients) each.close();
    // 50 ms apart: about 20 in a second, whether 1 or 20 subscribers follow.
    expect(polls).toBeGreaterThanOrEqual(10);
    expect(polls).toBeLessThanOrEqual(22);
  });
});

describe('stopping the server', () => {
  it('ends open subscriptions with UNAVAILABLE, which makes clients subscribe again', async () => {
    const read = readGrpcSettings({ HIERO_MIRROR_GRPC_PORT: '0' });
    if ('errors' in read) throw new Error(read.errors.join('; '));
    const other = await startGrpcServer({
      databaseUrl: database.url,
      settings: read.settings,
      host: '127.0.0.1',
      log: () => {},
    });
    const otherClient = mirrorClient(other.address);
    const done = collect(otherClient.subscribeTopic({ topicID: { topicNum: String(TOPIC) } }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await other.close();
    const { error } = await done;
    otherClient.close();
    expect({ code: error?.code, details: error?.details }).toEqual({
      code: status.UNAVAILABLE,
      details: 'The server is shutting down',
    });
  });
});

describe('a database the server cannot reach', () => {
  it('answers UNAVAILABLE with the reference message, logging one line per failure with its level and cause', async () => {
    const read = readGrpcSettings({ HIERO_MIRROR_GRPC_PORT: '0' });
    if ('errors' in read) throw new Error(read.errors.join('; '));
    const unreachable = new URL(database.url);
    unreachable.port = String(await freePort());
    const other = await startGrpcServer({
      databaseUrl: unreachable.href,
      settings: read.settings,
      host: '127.0.0.1',
      log: (line) => lines.push(line),
    });
    const lines: Record<string, unknown>[] = [];
    const otherClient = mirrorClient(other.address);
    try {
      const nodes = await collect(otherClient.getNodes({ file_id: { fileNum: '102' } }));
      for (let i = 0; i < 3; i++) await collect(otherClient.getNodes({ file_id: { fileNum: '102' } }));
      const messages = await collect(otherClient.subscribeTopic({ topicID: { topicNum: String(TOPIC) } }));
      // A line per failure, not per call: the repeats of getNodes' are held back (and summarised ten seconds on).
      expect(lines.filter((line) => line.msg === 'call failed')).toEqual(
        ['getNodes', 'subscribeTopic'].map((method) => ({
          msg: 'call failed',
          level: 'warn',
          method,
          status: 'UNAVAILABLE',
          error: expect.stringMatching(/connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
        })),
      );
      expect(lines.filter((line) => line.msg === 'call').length).toBe(5);
      for (const { error } of [nodes, messages]) {
        expect({ code: error?.code, details: error?.details }).toEqual({
          code: status.UNAVAILABLE,
          details: 'Error querying the data source. Please retry later',
        });
      }
    } finally {
      otherClient.close();
      await other.close();
    }
  });
});

describe('NetworkService.getNodes', () => {
  beforeAll(async () => {
    const book = 5n * SECOND;
    await insertAddressBook(database.sql, { start_consensus_timestamp: SECOND, file_id: 102n });
    await insertAddressBook(database.sql, { start_consensus_timestamp: book, file_id: 102n });
    for (const node of [0n, 1n, 2n]) {
      await insertAddressBookEntry(database.sql, { consensus_timestamp: SECOND, node_id: node, description: 'old' });
      await insertAddressBookEntry(database.sql, { consensus_timestamp: book, node_id: node });
      await insertServiceEndpoint(database.sql, {
        consensus_timestamp: book,
        node_id: node,
        port: 50211,
        ip_address_v4: `10.0.0.${node}`,
      });
    }
    await insertServiceEndpoint(database.sql, {
      consensus_timestamp: book,
      node_id: 0n,
      port: 50212,
      domain_name: 'node0.example.com',
    });
    await insertNodeStake(database.sql, { consensus_timestamp: 9n * SECOND, node_id: 0n, stake: 1234 });
    await insertNodeStake(database.sql, { consensus_timestamp: 9n * SECOND, node_id: 1n, stake: 4321 });
    await insertRow(database.sql, 'node', {
      node_id: 2n,
      account_id: 99n,
      created_timestamp: 1n,
      timestamp_range: '[1,)',
      decline_reward: false,
    });
  });

  it('sends the newest address book node by node, over pages, with stakes and endpoints', async () => {
    const { messages, error } = await collect(client.getNodes({ file_id: { fileNum: '102' } }));
    expect(error).toBeUndefined();
    expect(messages.map((node) => node.nodeId ?? '0')).toEqual(['0', '1', '2']);
    expect(messages.map((node) => node.stake)).toEqual(['1234', '4321', undefined]);
    expect(messages.map((node) => (node.nodeAccountId as ProtoObject).accountNum)).toEqual(['3', '4', '99']);
    expect(messages[0]).toMatchObject({
      description: 'node 0',
      memo: Buffer.from('0.0.3'),
      RSA_PubKey: '308201a2300d06092a0',
      nodeCertHash: Buffer.from('01d17375380'),
      serviceEndpoint: [
        { port: 50212, domain_name: 'node0.example.com' },
        { ipAddressV4: Buffer.from([10, 0, 0, 0]), port: 50211 },
      ],
    });
  });

  it('stops at the limit', async () => {
    const { messages } = await collect(client.getNodes({ file_id: { fileNum: '102' }, limit: 2 }));
    expect(messages.map((node) => node.nodeId ?? '0')).toEqual(['0', '1']);
  });

  it.each([
    [{}, status.INVALID_ARGUMENT, 'getNodes.filter.fileId: must not be null'],
    [
      { file_id: { fileNum: '102' }, limit: -1 },
      status.INVALID_ARGUMENT,
      'getNodes.filter.limit: must be greater than or equal to 0',
    ],
    [{ file_id: { fileNum: '150' } }, status.INVALID_ARGUMENT, 'Not a valid address book file'],
    [{ file_id: { fileNum: '101' } }, status.NOT_FOUND, '0.0.101 does not exist'],
  ])('refuses %j with the reference status and message', async (query, code, details) => {
    const { messages, error } = await collect(client.getNodes(query));
    expect(messages).toEqual([]);
    expect({ code: error?.code, details: error?.details }).toEqual({ code, details });
  });
});
