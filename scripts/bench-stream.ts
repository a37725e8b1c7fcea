/**
 * `npm run bench:stream [-- --subscribers ws=1000,grpc=100] [--files N] [--tps N]`
 *
 * Live push under load: a fresh embedded Postgres gets a few record files of the simulated network (its topics and
 * accounts), the Worker serves it as `npm start` does, and the subscribers (`--subscribers`: kinds and counts, e.g.
 * `ws=1000,grpc=100`; scripts/bench-stream/subscribers.ts) follow live rows of its topics, blocks and accounts; the
 * gRPC API runs beside the Worker as `npm start` runs it. Then the
 * simulated network writes a file every 2 s (`--files`, 15 by default, at `--tps`, 40) and the ingest follows it. For
 * every row a subscriber receives, the delivery latency is the time from the ingest's commit of its record file
 * (the ingest's `record file ingested` line) to its arrival; the tails' database statements are counted (the Worker's at the
 * SQL proxy, the gRPC API's shared poll by its own count). One line per kind, a line with the CPU workerd spent per message delivered (a figure other work on shared
 * cores moves less than the latencies), then `stream: N subscribers, p50 A ms, p99 B ms, Q queries/s`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { answerHelp } from '../common/cli-help.ts';
import { startGrpcServer } from '../grpc/server.ts';
import { readGrpcSettings } from '../grpc/settings.ts';
import { grpcSubscribers } from './bench-stream/grpc-subscribers.ts';
import { CommitTimes, percentile } from './bench-stream/latency.ts';
import { parseSubscribers, type SubscriberKind, type Subscribers } from './bench-stream/subscribers.ts';
import { wsSubscribers } from './bench-stream/ws-subscribers.ts';
import { startBenchDatabase, startBenchServer } from './local-stack/bench-stack.ts';
import { freePort } from './local-stack/free-port.ts';
import { ingestArgv } from './local-stack/ingest-process.ts';
import { runNode } from './local-stack/run-node.ts';
import { stopChild } from './local-stack/stop-child.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';
import { descendantCpuSeconds, loadAverage, ownCpuSeconds } from './process-cpu.ts';

/** The subscriber kinds `--subscribers` can name. */
const KINDS: ReadonlyMap<string, SubscriberKind> = new Map([
  [wsSubscribers.name, wsSubscribers],
  [grpcSubscribers.name, grpcSubscribers],
]);

answerHelp(
  process.argv.slice(2),
  "usage: npm run bench:stream [-- --subscribers ws=1000,grpc=100] [--files N] [--tps N]\n\nWebSocket and gRPC subscribers follow a simulated ledger while the ingest writes it; prints the delivery latency\nfrom the ingest's commit (p50, p99) and the database queries a second of the tails, ending `stream: …`.",
);

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: 'ws=1000,grpc=100' },
    files: { type: 'string', default: '15' },
    tps: { type: 'string', default: '40' },
  },
});
const plan = parseSubscribers(values.subscribers, KINDS);
const OUT_DIR = path.join(REPO_ROOT, '.data/bench-stream');
const STREAMS = path.join(OUT_DIR, 'streams');
const SIMULATION = ['--out', STREAMS, '--tps', values.tps, '--seed', 'bench-stream', '--quiet'];
/** Time for the last file to be ingested and pushed after the simulated network stops. */
const SETTLE_MS = 4_000;
const log = (message: string) => console.error(`bench: ${message}`);

const { stops, stopAll } = stopsOnSignal();
try {
  rmSync(OUT_DIR, { recursive: true, force: true });
  log('simulating the first files and ingesting them');
  await runNode([path.join(REPO_ROOT, 'simulator/main.ts'), ...SIMULATION, '--files', '4']);
  const local = await startBenchDatabase({ dir: path.join(OUT_DIR, 'pg'), port: await freePort(), stops });
  await runNode(ingestArgv(STREAMS, '--until-idle'), { DATABASE_URL: local.url });
  const targets = await readTargets(local.url);

  const { proxy, worker } = await startBenchServer({ database: local, port: await freePort(), outDir: OUT_DIR, stops });
  const grpcSettings = readGrpcSettings({ HIERO_MIRROR_GRPC_PORT: '0' });
  if ('errors' in grpcSettings) throw new Error(grpcSettings.errors.join('; '));
  const grpc = await startGrpcServer({
    databaseUrl: local.url,
    settings: grpcSettings.settings,
    host: '127.0.0.1',
    log: () => {},
  });
  stops.push(() => grpc.close());

  const commits = new CommitTimes();
  const latencies = new Map<string, number[]>();
  const opened: Subscribers[] = [];
  for (const { kind, count } of plan) {
    const samples: number[] = [];
    latencies.set(kind.name, samples);
    log(`opening ${count} ${kind.name} subscribers`);
    opened.push(
      await kind.open({ ...targets, baseUrl: worker.baseUrl, grpcAddress: grpc.address }, count, (at, timestamp) => {
        const committed = commits.commitOf(timestamp);
        if (committed !== undefined) samples.push(at - committed);
      }),
    );
  }
  stops.push(async () => {
    for (const subscribers of opened) await subscribers.close();
  });
  // Every subscriber registered with the tail before the first new file.
  await new Promise((resolve) => setTimeout(resolve, 2_000));

  const ingest = followIngest(ingestArgv(STREAMS), local.url, commits);
  stops.push(() => stopChild(ingest));
  const startedAt = performance.now();
  const statementsBefore = proxy.queries + grpc.tail.polls;
  const cpuBefore = { workerd: descendantCpuSeconds('workerd'), own: ownCpuSeconds() };
  log(`the simulated network writes ${values.files} files, one every 2 s`);
  await runNode([
    path.join(REPO_ROOT, 'simulator/main.ts'),
    ...SIMULATION,
    '--continue',
    '--live',
    '--files',
    values.files,
  ]);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const seconds = (performance.now() - startedAt) / 1000;
  const workerdCpu = (descendantCpuSeconds('workerd') ?? Number.NaN) - (cpuBefore.workerd ?? Number.NaN);
  const ownCpu = ownCpuSeconds() - cpuBefore.own;
  const queriesPerSecond = (proxy.queries + grpc.tail.polls - statementsBefore) / seconds;

  const all: number[] = [];
  for (const { kind, count } of plan) {
    const samples = latencies.get(kind.name) ?? [];
    all.push(...samples);
    console.log(
      `${kind.name}: ${count} subscribers, ${samples.length} rows received, p50 ${percentile(samples, 50).toFixed(0)} ms, p99 ${percentile(samples, 99).toFixed(0)} ms`,
    );
  }
  log(
    `${commits.size} files committed in ${seconds.toFixed(1)} s; CPU: workerd ${workerdCpu.toFixed(1)} s (${((workerdCpu * 1e6) / Math.max(all.length, 1)).toFixed(0)} µs per message), subscribers' process ${ownCpu.toFixed(1)} s; load average ${loadAverage()}`,
  );
  const total = plan.reduce((sum, { count }) => sum + count, 0);
  console.log(
    `stream: ${total} subscribers, p50 ${percentile(all, 50).toFixed(0)} ms, p99 ${percentile(all, 99).toFixed(0)} ms, ${queriesPerSecond.toFixed(1)} queries/s`,
  );
} finally {
  await stopAll();
}

/** The busiest topics and accounts of the first files: what the subscribers follow. */
async function readTargets(url: string): Promise<{ topics: string[]; accounts: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids = async (text: string) => (await client.query<{ id: string }>(text)).rows.map((row) => `0.0.${row.id}`);
    return {
      // Shard and realm are 0 on the simulated network: an encoded entity id is its number.
      topics: await ids(
        'select topic_id::text as id from topic_message group by topic_id order by count(*) desc limit 20',
      ),
      accounts: await ids(
        `select entity_id::text as id from crypto_transfer where entity_id > 1000
          group by entity_id order by count(*) desc limit 20`,
      ),
    };
  } finally {
    await client.end();
  }
}

/** The ingest following the stream directory; each file's commit is noted when its log line arrives. */
function followIngest(argv: string[], databaseUrl: string, commits: CommitTimes): ChildProcess {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...argv], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  if (!child.stdout) throw new Error('the ingest has no stdout');
  createInterface({ input: child.stdout }).on('line', (line) => {
    const at = performance.timeOrigin + performance.now();
    let fields: { msg?: string; consensusEnd?: string };
    try {
      fields = JSON.parse(line) as typeof fields;
    } catch {
      return;
    }
    if (fields.msg === 'record file ingested' && fields.consensusEnd) commits.add(BigInt(fields.consensusEnd), at);
  });
  return child;
}
