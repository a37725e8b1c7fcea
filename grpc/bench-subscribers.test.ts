import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEntity } from '../test/harness/factories-tokens.ts';
import { insertTopicMessage } from '../test/harness/factories-topics.ts';
import { createTestDatabase, type TestDatabase } from '../test/harness/test-database.ts';
import { openGrpcSubscribers } from './bench-subscribers.ts';
import { type GrpcServer, startGrpcServer } from './server.ts';
import { readGrpcSettings } from './settings.ts';

const TOPIC = 2001n;

let database: TestDatabase;
let server: GrpcServer;

beforeAll(async () => {
  database = await createTestDatabase();
  await insertEntity(database.sql, TOPIC, 1n, { type: 'TOPIC' });
  const read = readGrpcSettings({ HIERO_MIRROR_GRPC_PORT: '0', HIERO_MIRROR_GRPC_LISTENER_INTERVAL: '50ms' });
  if ('errors' in read) throw new Error(read.errors.join('; '));
  server = await startGrpcServer({
    databaseUrl: database.url,
    settings: read.settings,
    host: '127.0.0.1',
    log: () => {},
  });
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('openGrpcSubscribers', () => {
  it('records every live message once per subscriber, with the time it arrived', async () => {
    const subscribers = openGrpcSubscribers({ address: server.address, topicNum: TOPIC, subscribers: 12 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const written = Date.now();
      const first = BigInt(written) * 1_000_000n;
      for (const n of [1, 2, 3]) {
        await insertTopicMessage(database.sql, {
          topic_id: TOPIC,
          sequence_number: n,
          consensus_timestamp: first + BigInt(n),
        });
      }
      const deadline = Date.now() + 10_000;
      while (subscribers.deliveries.length < 36 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(subscribers.errors).toEqual([]);
      const bySubscriber = Array.from({ length: 12 }, (_, subscriber) =>
        subscribers.deliveries.filter((d) => d.subscriber === subscriber).map((d) => d.sequenceNumber),
      );
      expect(bySubscriber).toEqual(Array.from({ length: 12 }, () => [1n, 2n, 3n]));
      expect(subscribers.deliveries.every((d) => d.receivedAtMs >= written)).toBe(true);
      expect(subscribers.deliveries[0]?.consensusTimestampNs).toBe(first + 1n);
    } finally {
      subscribers.close();
    }
  });
});
