/**
 * `npm run bench:submit`: the local network under submitted load. A stack of its own (embedded Postgres under
 * .data/bench-submit, the Worker, the simulated network live with its consensus nodes and no generated load, the
 * ingest following it as `npm start` runs it); 16 SDK clients (`--clients`), each paying from an account of its own
 * across the four nodes, submit hbar transfers back to back for `--duration` seconds and wait for each receipt; a
 * watcher lists the REST API's new transactions and notes when each submitted one appears. Ends with
 * `submit: N tx/s, p50 A ms to receipt, p50 B ms to the REST API`.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  AccountCreateTransaction,
  type AccountId,
  Client,
  Hbar,
  PrivateKey,
  TransferTransaction,
} from '@hiero-ledger/sdk';
import { answerHelp } from '../common/cli-help.ts';
import { GENESIS_PRIVATE_KEY_DER } from '../simulator/network/genesis.ts';
import { percentile } from './bench-stream/latency.ts';
import { startBenchDatabase, startBenchServer } from './local-stack/bench-stack.ts';
import { freePort, freePortRun } from './local-stack/free-port.ts';
import { ingestArgv, startIngestProcess } from './local-stack/ingest-process.ts';
import { startSimulatorProcess } from './local-stack/simulator-process.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';

answerHelp(
  process.argv.slice(2),
  'usage: npm run bench:submit [-- --clients N] [--duration S]\n\nSDK clients submit hbar transfers to the local network back to back; prints the rate, the p50 from submission to\nreceipt and to the REST API, ending `submit: N tx/s, p50 A ms to receipt, p50 B ms to the REST API`.',
);

const { values } = parseArgs({
  options: { clients: { type: 'string', default: '16' }, duration: { type: 'string', default: '20' } },
});
const CLIENTS = Number(values.clients);
const DURATION_MS = Number(values.duration) * 1000;
if (!(CLIENTS >= 1 && DURATION_MS > 0)) throw new Error('--clients and --duration must be positive numbers');
const OUT_DIR = path.join(REPO_ROOT, '.data/bench-submit');
const NODES = 4;
/** After the last submission: the last file's period, the ingest's poll and its write. */
const SETTLE_MS = 5_000;
const log = (message: string) => console.error(`bench: ${message}`);

/** `0.0.2@1700000000.000000001` as the REST API writes it: `0.0.2-1700000000-000000001`. */
function restId(id: string): string {
  const [payer, start = ''] = id.split('@');
  const [seconds, nanos = '0'] = start.split('.');
  return `${payer}-${seconds}-${nanos.padStart(9, '0')}`;
}

const { stops, stopAll } = stopsOnSignal();
try {
  rmSync(OUT_DIR, { recursive: true, force: true });
  const local = await startBenchDatabase({ dir: path.join(OUT_DIR, 'pg'), port: await freePort(), stops });
  const { worker } = await startBenchServer({ database: local, port: await freePort(), outDir: OUT_DIR, stops });
  const nodePort = await freePortRun(NODES);
  const streams = path.join(OUT_DIR, 'streams');
  const simulator = await startSimulatorProcess({ out: streams, nodePort, load: false, output: 'ignore' });
  stops.push(() => simulator.stop());
  const ingest = startIngestProcess({
    source: streams,
    databaseUrl: local.url,
    log: () => {},
    argv: ingestArgv(streams, '--poll-interval', '500'),
  });
  stops.push(() => ingest.stop());

  const network: Record<string, string> = {};
  for (let n = 0; n < NODES; n++) network[`127.0.0.1:${nodePort + n}`] = `0.0.${n + 3}`;
  const genesis = Client.forNetwork(network).setOperator('0.0.2', PrivateKey.fromStringDer(GENESIS_PRIVATE_KEY_DER));
  stops.push(async () => genesis.close());
  log(`creating ${CLIENTS} payer accounts`);
  const clients: { client: Client; account: AccountId }[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const key = PrivateKey.generateED25519();
    const created = await new AccountCreateTransaction()
      .setKeyWithoutAlias(key.publicKey)
      .setInitialBalance(new Hbar(1_000))
      .execute(genesis);
    const account = (await created.getReceipt(genesis)).accountId as AccountId;
    const client = Client.forNetwork(network).setOperator(account, key);
    stops.push(async () => client.close());
    clients.push({ client, account });
  }

  const submitted = new Map<string, number>();
  const toReceipt: number[] = [];
  const toRest: number[] = [];
  let watching = true;
  // The REST watcher: pages of transactions after the last one seen, matched to the submitted ids.
  const watcher = (async () => {
    let after = '0';
    while (watching || submitted.size > 0) {
      const response = await fetch(`${worker.baseUrl}/api/v1/transactions?timestamp=gt:${after}&order=asc&limit=100`);
      const body = (await response.json()) as {
        transactions?: { transaction_id: string; consensus_timestamp: string }[];
      };
      const now = performance.now();
      for (const transaction of body.transactions ?? []) {
        after = transaction.consensus_timestamp;
        const at = submitted.get(transaction.transaction_id);
        if (at === undefined) continue;
        toRest.push(now - at);
        submitted.delete(transaction.transaction_id);
      }
      if ((body.transactions ?? []).length < 100) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  log(`${CLIENTS} clients submit transfers for ${DURATION_MS / 1000} s`);
  const started = performance.now();
  let done = 0;
  await Promise.all(
    clients.map(async ({ client, account }) => {
      while (performance.now() - started < DURATION_MS) {
        const at = performance.now();
        const response = await new TransferTransaction()
          .addHbarTransfer(account, Hbar.fromTinybars(-1))
          .addHbarTransfer('0.0.2', Hbar.fromTinybars(1))
          .execute(client);
        submitted.set(restId(response.transactionId.toString()), at);
        await response.getReceipt(client);
        toReceipt.push(performance.now() - at);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const settleBy = performance.now() + SETTLE_MS;
  while (submitted.size > 0 && performance.now() < settleBy) await new Promise((resolve) => setTimeout(resolve, 100));
  watching = false;
  const missing = submitted.size;
  submitted.clear();
  await watcher;
  if (missing > 0) log(`${missing} transactions were not on the REST API ${SETTLE_MS} ms after the last submission`);
  console.log(
    `receipts: ${done} in ${seconds.toFixed(1)} s, p99 ${percentile(toReceipt, 99).toFixed(0)} ms; REST API: ${toRest.length} seen, p99 ${percentile(toRest, 99).toFixed(0)} ms`,
  );
  console.log(
    `submit: ${(done / seconds).toFixed(1)} tx/s, p50 ${percentile(toReceipt, 50).toFixed(0)} ms to receipt, p50 ${percentile(toRest, 50).toFixed(0)} ms to the REST API`,
  );
} finally {
  await stopAll();
}
