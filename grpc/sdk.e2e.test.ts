/**
 * The official Hiero JavaScript SDK against the gRPC API, on a ledger the simulated network writes and the ingest
 * follows: TopicMessageQuery from a start time in the past receives every message of a topic, stored and live,
 * chunked ones too, in order and each once, as /api/v1/topics/{id}/messages lists them; AddressBookQuery returns the
 * nodes /api/v1/network/nodes lists.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AddressBookQuery,
  Client,
  FileId,
  type NodeAddressBook,
  Timestamp,
  TopicId,
  type TopicMessage,
  TopicMessageQuery,
} from '@hiero-ledger/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirStore } from '../ingest/sources/dir-store.ts';
import { ingestStore } from '../ingest/testing/fixtures.ts';
import { parseOptions } from '../simulator/main.ts';
import { simulate } from '../simulator/run.ts';
import { ADDRESS_BOOK_FILE } from '../simulator/write/layout.ts';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';
import { type GrpcServer, startGrpcServer } from './server.ts';
import { readGrpcSettings } from './settings.ts';

const out = mkdtempSync(path.join(tmpdir(), 'grpc-sdk-'));

/** One stage of the simulated network (the first, or a `--continue` one), with chunked messages frequent. */
async function simulateFiles(files: number, continued: boolean) {
  await simulate({
    ...parseOptions([
      '--out',
      out,
      '--files',
      String(files),
      '--tps',
      '100',
      '--seed',
      'grpc-sdk',
      ...(continued ? ['--continue'] : []),
    ]),
    weights: { chunkedMessage: 60 },
  });
}

async function ingest(url: string) {
  const book = new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE)));
  await ingestStore(url, new DirStore(out), '', { bootstrapAddressBook: book });
}

const { db, worker } = registerWorkerSuite({
  seed: async (database) => {
    await simulateFiles(4, false);
    await ingest(database.url);
  },
  timeout: 240_000,
});

let server: GrpcServer;
let client: Client;

beforeAll(async () => {
  const read = readGrpcSettings({ HIERO_MIRROR_GRPC_PORT: '0', HIERO_MIRROR_GRPC_LISTENER_INTERVAL: '100ms' });
  if ('errors' in read) throw new Error(read.errors.join('; '));
  server = await startGrpcServer({ databaseUrl: db.url, settings: read.settings, host: '127.0.0.1', log: () => {} });
  client = Client.forNetwork({}).setMirrorNetwork([`127.0.0.1:${server.port}`]);
});

afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(out, { recursive: true, force: true });
});

interface RestMessage {
  consensus_timestamp: string;
  message: string;
  running_hash: string;
  sequence_number: number;
  chunk_info: { number: number; total: number } | null;
}

async function restMessages(topic: string): Promise<RestMessage[]> {
  const messages: RestMessage[] = [];
  let next: string | null = `/api/v1/topics/${topic}/messages?limit=100`;
  while (next) {
    const response = await worker.get(next);
    expect(response.status).toBe(200);
    messages.push(...response.body.messages);
    next = response.body.links.next;
  }
  return messages;
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const timestampText = (timestamp: Timestamp) =>
  `${timestamp.seconds.toString()}.${timestamp.nanos.toString().padStart(9, '0')}`;

describe('the Hiero SDK over the gRPC API', () => {
  it('receives every message of a topic from the past through live ones, chunks included, as REST lists them', async () => {
    const { rows } = await db.sql.query<{ topic_id: string; chunked: number }>(
      `select topic_id::text, count(chunk_num)::int as chunked from topic_message
        group by topic_id order by count(chunk_num) > 0 desc, count(*) desc limit 1`,
    );
    const topic = TopicId.fromString(`0.0.${rows[0]?.topic_id}`);
    expect(rows[0]?.chunked).toBeGreaterThan(0);
    const stored = (await restMessages(topic.toString())).length;

    const received: TopicMessage[] = [];
    const errors: unknown[] = [];
    const handle = new TopicMessageQuery()
      .setTopicId(topic)
      .setStartTime(Timestamp.fromDate(new Date(0)))
      .subscribe(
        client,
        (_message, error) => errors.push(error),
        (message) => received.push(message),
      );
    const chunks = () => received.flatMap((message) => message.chunks);
    try {
      await until(() => chunks().length >= stored, 60_000, `the ${stored} stored messages`);
      // Live messages: files written and ingested while subscribed, until the topic has some (which file brings the
      // next one depends on the seed's draws).
      let expected = await restMessages(topic.toString());
      for (let file = 0; file < 10 && expected.length <= stored; file++) {
        await simulateFiles(1, true);
        await ingest(db.url);
        expected = await restMessages(topic.toString());
      }
      expect(expected.length).toBeGreaterThan(stored);
      await until(() => chunks().length >= expected.length, 60_000, `the ${expected.length} messages`);
      await new Promise((resolve) => setTimeout(resolve, 500));

      expect(errors).toEqual([]);
      expect(
        chunks().map((chunk) => ({
          consensus_timestamp: timestampText(chunk.consensusTimestamp),
          message: Buffer.from(chunk.contents).toString('base64'),
          running_hash: Buffer.from(chunk.runningHash).toString('base64'),
          sequence_number: chunk.sequenceNumber.toNumber(),
        })),
      ).toEqual(
        expected.map(({ consensus_timestamp, message, running_hash, sequence_number }) => ({
          consensus_timestamp,
          message,
          running_hash,
          sequence_number,
        })),
      );
      const chunkedSdk = received
        .filter((message) => message.chunks.length > 1)
        .map((message) => message.chunks.length);
      const chunkedRest = expected.filter((message) => message.chunk_info && message.chunk_info.number === 1);
      expect(chunkedSdk).toEqual(chunkedRest.map((message) => message.chunk_info?.total));
      expect(chunkedSdk.length).toBeGreaterThan(0);
    } finally {
      handle.unsubscribe();
    }
  }, 240_000);

  it('reads the address book with AddressBookQuery as /api/v1/network/nodes lists it', async () => {
    const book: NodeAddressBook = await new AddressBookQuery().setFileId(FileId.ADDRESS_BOOK).execute(client);
    const response = await worker.get('/api/v1/network/nodes?limit=25');
    expect(response.status).toBe(200);
    expect(response.body.nodes.length).toBeGreaterThan(0);
    expect(
      book.nodeAddresses.map((node) => ({
        node_id: node.nodeId?.toNumber(),
        node_account_id: node.accountId?.toString(),
        description: node.description ?? '',
        service_endpoints: node.addresses.map(({ address, port }) => ({
          ip_address_v4: address === null || typeof address === 'string' ? '' : address.toString(),
          port,
          domain_name: typeof address === 'string' ? address : '',
        })),
      })),
    ).toEqual(
      response.body.nodes.map((node: Record<string, unknown>) => ({
        node_id: node.node_id,
        node_account_id: node.node_account_id,
        description: node.description ?? '',
        service_endpoints: node.service_endpoints,
      })),
    );
  });
});
