/**
 * `npm run simulate -- --out <dir> [--tps N] [--duration S | --files N] [--seed X] [--format record|block|both]
 * [--nodes N] [--start ISO] [--live] [--continue]`: a simulated network writing signed record streams and/or block streams
 * into a bucket-shaped directory, with its ledger model in `<dir>/ledger.json`. Same seed, same options, same
 * bytes (live mode starts its clock at the wall clock instead of `--start`).
 */
import { parseArgs } from 'node:util';
import { type SimulationOptions, type StreamFormat, simulate } from './run.ts';
import { instantName } from './write/layout.ts';

const USAGE = `usage: npm run simulate -- --out <dir> [--tps N] [--duration S | --files N] [--seed X]
       [--format record|block|both] [--nodes N] [--start ISO-8601] [--live] [--continue] [--quiet]
       [--node-port N] [--node-host H] [--load on|off]

  --out <dir>         where the bucket-shaped output goes (record and signature files, block files, ledger.json)
  --tps N             transactions a second (default: 50)
  --duration S        seconds of consensus time to write, one file every 2 s; or
  --files N           files of traffic to write (default: 30; with --live: until stopped); a new chain's genesis
                      file (block 0: the system files the network starts with) comes before them
  --seed X            the seed of the transaction mix: same seed, same options, same bytes (default: edge-mirror)
  --format F          record, block or both (default: record)
  --nodes N           consensus nodes signing each file (default: 4)
  --start ISO-8601    when the traffic starts (default: 2025-01-01T00:00:00Z; with --live: now); genesis is 2 s earlier
  --live              write a file every 2 s of wall-clock time
  --continue          extend the chain an earlier run saved in <dir>/chain.json
  --node-port N       with --live: the consensus nodes accept clients' signed transactions and queries over gRPC,
                      node 0 (0.0.3) on N, node n on N + n, as the address book says (default: none)
  --node-host H       the address the nodes listen on (default: 127.0.0.1)
  --load on|off       the generated load (default: on); off: only clients' transactions and system updates
  --quiet             no line per file
  --help              this text`;

const DEFAULT_START = '2025-01-01T00:00:00Z';
const PERIOD_MS = 2_000;

export function parseOptions(argv: readonly string[]): SimulationOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      out: { type: 'string' },
      tps: { type: 'string', default: '50' },
      duration: { type: 'string' },
      files: { type: 'string' },
      seed: { type: 'string', default: 'edge-mirror' },
      format: { type: 'string', default: 'record' },
      nodes: { type: 'string', default: '4' },
      start: { type: 'string' },
      live: { type: 'boolean', default: false },
      continue: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      'node-port': { type: 'string' },
      'node-host': { type: 'string', default: '127.0.0.1' },
      load: { type: 'string', default: 'on' },
    },
    strict: true,
  });
  if (!values.out) throw new Error(`--out is required\n${USAGE}`);
  const positive = (name: string, text: string | undefined) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  if (values.duration !== undefined && values.files !== undefined)
    throw new Error('give --duration or --files, not both');
  const format = values.format as StreamFormat;
  if (!['record', 'block', 'both'].includes(format)) throw new Error('--format must be record, block or both');
  let files: number | undefined;
  if (values.files !== undefined) files = Math.floor(positive('files', values.files));
  else if (values.duration !== undefined) files = Math.ceil((positive('duration', values.duration) * 1000) / PERIOD_MS);
  else if (!values.live) files = 30;
  if (!['on', 'off'].includes(values.load)) throw new Error('--load must be on or off');
  let node: SimulationOptions['node'];
  if (values['node-port'] !== undefined) {
    if (!values.live) throw new Error('--node-port needs --live: the nodes answer only while the network runs');
    const basePort = Number(values['node-port']);
    if (!Number.isInteger(basePort) || basePort < 1 || basePort > 65535) throw new Error('--node-port must be a port');
    node = { host: values['node-host'], basePort };
  }
  const startMs = values.live && !values.start ? Date.now() : Date.parse(values.start ?? DEFAULT_START);
  if (Number.isNaN(startMs)) throw new Error('--start must be an ISO-8601 instant');
  return {
    out: values.out,
    tps: positive('tps', values.tps),
    files,
    seed: values.seed,
    format,
    live: values.live,
    resume: values.continue,
    nodes: Math.floor(positive('nodes', values.nodes)),
    startNs: BigInt(startMs) * 1_000_000n,
    periodMs: PERIOD_MS,
    load: values.load === 'on',
    ...(node ? { node } : {}),
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const quiet = argv.includes('--quiet');
  const options = parseOptions(argv);
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
  // Started by a parent over IPC (the local stack): stop when that parent goes away, even without a signal.
  if (process.send) {
    process.once('disconnect', () => controller.abort());
    process.channel?.unref();
  }
  const started = performance.now();
  const summary = await simulate({
    ...options,
    signal: controller.signal,
    nodeLog: (fields) => console.log(JSON.stringify({ service: 'node', ...fields })),
    onNodes: (addresses) =>
      console.log(JSON.stringify({ service: 'simulate', msg: 'nodes listening', nodes: addresses })),
    onFile: (file) => {
      if (!quiet)
        console.log(
          JSON.stringify({ service: 'simulate', file: file.name, transactions: file.count, index: file.index }),
        );
    },
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `simulate: ${summary.transactions} transactions in ${summary.files} files up to ${instantName(summary.lastConsensusNs)} ` +
      `(${seconds.toFixed(1)} s) in ${options.out}`,
  );
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(`simulate failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
