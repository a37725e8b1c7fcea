/**
 * The local network as `npm start` runs it, for tests on a test database: the simulated network live with its
 * consensus nodes (no generated load unless asked), the ingest following its streams, and the mirror's gRPC API;
 * the test brings the Worker (registerWorkerSuite). An SDK client set up as `Client.forLocalNode()` is, with the
 * ports moved: node 0.0.3 and the mirror on free ports, operator 0.0.2 with the genesis key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AccountCreateTransaction,
  type AccountId,
  Client,
  Hbar,
  PrivateKey,
  Status,
  type TransactionReceipt,
  type TransactionResponse,
} from '@hiero-ledger/sdk';
import { afterAll, beforeAll, expect } from 'vitest';
import { type GrpcServer, startGrpcServer } from '../../grpc/server.ts';
import { readGrpcSettings } from '../../grpc/settings.ts';
import { freePortRun } from '../../scripts/local-stack/free-port.ts';
import { type IngestProcess, ingestArgv, startIngestProcess } from '../../scripts/local-stack/ingest-process.ts';
import { parseOptions } from '../../simulator/main.ts';
import { GENESIS_PRIVATE_KEY_DER } from '../../simulator/network/genesis.ts';
import { simulate } from '../../simulator/run.ts';
import type { TestWorker } from './test-worker.ts';

export const NODE_COUNT = 4;

export interface LocalNetwork {
  /** Node 0's `host:port`; node n listens on the next ports. */
  readonly nodeAddress: string;
  readonly nodePort: number;
  readonly mirrorGrpc: string;
  readonly out: string;
  /** A new client for node 0.0.3 (and the other nodes when `nodes` > 1) with operator 0.0.2. */
  client(nodes?: number): Client;
  stop(): Promise<void>;
}

export async function startLocalNetwork(databaseUrl: string, options: { load?: boolean } = {}): Promise<LocalNetwork> {
  const out = mkdtempSync(path.join(tmpdir(), 'local-network-'));
  const nodePort = await freePortRun(NODE_COUNT);
  const controller = new AbortController();
  let listening: (addresses: readonly string[]) => void = () => {};
  const nodesUp = new Promise<readonly string[]>((resolve) => {
    listening = resolve;
  });
  const run = simulate({
    ...parseOptions([
      '--out',
      out,
      '--live',
      '--node-port',
      String(nodePort),
      '--load',
      options.load ? 'on' : 'off',
      '--tps',
      '20',
    ]),
    signal: controller.signal,
    onNodes: listening,
  });
  const failed = run.then(() => {
    throw new Error('the simulated network stopped');
  });
  await Promise.race([nodesUp, failed]);
  const ingest: IngestProcess = startIngestProcess({
    source: out,
    databaseUrl,
    log: () => {},
    argv: ingestArgv(out, '--poll-interval', '200'),
  });
  const settings = readGrpcSettings({ HIERO_MIRROR_GRPC_PORT: '0', HIERO_MIRROR_GRPC_LISTENER_INTERVAL: '100ms' });
  if ('errors' in settings) throw new Error(settings.errors.join('; '));
  const grpc: GrpcServer = await startGrpcServer({
    databaseUrl,
    settings: settings.settings,
    host: '127.0.0.1',
    log: () => {},
  });
  const clients: Client[] = [];
  return {
    nodeAddress: `127.0.0.1:${nodePort}`,
    nodePort,
    mirrorGrpc: grpc.address,
    out,
    client: (nodes = 1) => {
      const network: Record<string, string> = {};
      for (let n = 0; n < nodes; n++) network[`127.0.0.1:${nodePort + n}`] = `0.0.${n + 3}`;
      const client = Client.forNetwork(network)
        .setMirrorNetwork([grpc.address])
        .setOperator('0.0.2', PrivateKey.fromStringDer(GENESIS_PRIVATE_KEY_DER));
      clients.push(client);
      return client;
    },
    stop: async () => {
      for (const client of clients) client.close();
      controller.abort();
      await run.catch(() => {});
      await grpc.close();
      await ingest.stop();
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/**
 * The local network for the tests of the file that calls this, over the database `databaseUrl` names once the suite
 * has made it: started before they run, with a client for node 0.0.3, and stopped after.
 */
export function useLocalNetwork(databaseUrl: () => string): {
  readonly network: LocalNetwork;
  readonly client: Client;
} {
  let started: { network: LocalNetwork; client: Client } | undefined;
  beforeAll(async () => {
    const network = await startLocalNetwork(databaseUrl());
    started = { network, client: network.client() };
  }, 60_000);
  afterAll(async () => {
    await started?.network.stop();
  });
  const running = () => {
    if (!started) throw new Error('the local network runs from the first test or hook on');
    return started;
  };
  return {
    get network() {
      return running().network;
    },
    get client() {
      return running().client;
    },
  };
}

/** A record file's period, the ingest's poll and its write: the most the REST API lags a receipt. */
export const VISIBLE_WITHIN_MS = 6_000;

/** Polls a REST path until `ready` accepts its body; fails when that takes longer than a file's period. */
export async function eventually<T = Record<string, unknown>>(
  worker: TestWorker,
  path: string,
  ready: (body: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + VISIBLE_WITHIN_MS;
  for (;;) {
    const response = await worker.get(path);
    if (response.status === 200 && ready(response.body as T)) return response.body as T;
    if (Date.now() > deadline) throw new Error(`${path}: ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A transaction's id as the REST API spells it (`0.0.2-1700000000-000000001`). */
export function restTransactionId(response: TransactionResponse): string {
  const [payer, start = ''] = response.transactionId.toString().split('@');
  const [seconds, nanos = '0'] = start.split('.');
  return `${payer}-${seconds}-${nanos.padStart(9, '0')}`;
}

/** The receipt of a transaction that must succeed. */
export async function succeeds(client: Client, response: TransactionResponse): Promise<TransactionReceipt> {
  const receipt = await response.getReceipt(client);
  expect(receipt.status).toBe(Status.Success);
  return receipt;
}

/** A new account with `key` (no alias), `hbar` hbar and that many automatic token associations (−1: unlimited). */
export async function fundedAccount(
  client: Client,
  key: PrivateKey,
  { hbar, maxAutomaticTokenAssociations }: { hbar: number; maxAutomaticTokenAssociations: number },
): Promise<AccountId> {
  const receipt = await succeeds(
    client,
    await new AccountCreateTransaction()
      .setKeyWithoutAlias(key.publicKey)
      .setInitialBalance(new Hbar(hbar))
      .setMaxAutomaticTokenAssociations(maxAutomaticTokenAssociations)
      .execute(client),
  );
  if (!receipt.accountId) throw new Error('no account id');
  return receipt.accountId;
}
