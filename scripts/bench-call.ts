/**
 * `npm run bench:call [-- --duration S] [--connections N]`
 *
 * POST /api/v1/contracts/call under load, on a ledger the simulated network wrote (`.data/bench-call/streams`,
 * written and ingested into an embedded Postgres under `.data/bench-call/pg` once, then reused), served as
 * `npm start` serves it. Four kinds of request, one after the other: a pure function of a SimToken contract
 * (`decimals()`), an ERC-20 `balanceOf` of an HTS token through its redirect, an estimate of a SimToken transfer
 * by a holder, and an estimate of an HTS token's ERC-20 `transfer` (through its redirect) by a holder. One line per
 * kind (with the SQL statements and the CPU of workerd and Postgres per call, figures that stay comparable when other
 * work shares the cores), then `call: N calls/s geo-mean, p50 M ms`. Each connection is a client of its own (its own
 * address), so the load spreads over the executor shards as many clients' would.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { addressWord, artifact, callData, word } from '../simulator/evm/abi.ts';
import type { LedgerSnapshot } from '../simulator/ledger/export.ts';
import { LEDGER_FILE } from '../simulator/write/layout.ts';
import { longZeroEvmAddress } from '../workers/params/entity-id.ts';
import { optionValue } from './cli-option.ts';
import { simulatedLedger, startBenchServer } from './local-stack/bench-stack.ts';
import { freePort } from './local-stack/free-port.ts';
import { stopsOnSignal } from './local-stack/stops.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';
import { descendantCpuSeconds, loadAverage, postgresCpuSeconds } from './process-cpu.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run bench:call [-- --duration S] [--connections N]\n\nPOST /api/v1/contracts/call under load on a simulated ledger (.data/bench-call): one line per kind of call, then\ncall: N calls/s geo-mean, p50 M ms.`,
);

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => optionValue(args, name) ?? fallback;
const durationMs = Number(option('duration', '10')) * 1000;
const connections = Number(option('connections', '16'));
/** The simulated ledger: enough files for contracts, HTS tokens and their holders to exist. */
const SIMULATION = ['--files', '60', '--tps', '40', '--seed', 'bench-call'];
const WARM_UP_MS = 2000;

const OUT_DIR = path.join(REPO_ROOT, '.data/bench-call');
const STREAMS = path.join(OUT_DIR, 'streams');
const log = (message: string) => console.error(`bench: ${message}`);

const { stops, stopAll } = stopsOnSignal();

interface Kind {
  readonly name: string;
  readonly body: object;
  /** The `result` the ledger model says the call answers; the line of a kind answered otherwise says so. */
  readonly expected: RegExp;
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const numOf = (id: string) => BigInt(id.split('.')[2] ?? '0');

try {
  const cluster = path.join(OUT_DIR, 'pg');
  const local = await simulatedLedger({ dir: OUT_DIR, simulation: SIMULATION, port: await freePort(), stops, log });
  const kinds = requestKinds(JSON.parse(readFileSync(path.join(STREAMS, LEDGER_FILE), 'utf8')) as LedgerSnapshot);

  const { proxy, worker } = await startBenchServer({ database: local, port: await freePort(), outDir: OUT_DIR, stops });
  log(`Worker ${worker.baseUrl}`);

  const results: { rate: number; p50: number }[] = [];
  for (const kind of kinds) {
    const answer = await answerOf(worker.baseUrl, kind);
    const wrong = kind.expected.test(answer) ? '' : ` (answers ${answer.slice(0, 80)}, not ${kind.expected.source})`;
    await load(worker.baseUrl, kind, Math.min(WARM_UP_MS, durationMs));
    const before = {
      statements: proxy.queries,
      workerd: descendantCpuSeconds('workerd'),
      pg: postgresCpuSeconds(cluster),
    };
    const { rate, p50, failed, calls } = await load(worker.baseUrl, kind, durationMs);
    const perCall = (start: number | undefined, end: number | undefined) =>
      start === undefined || end === undefined ? '?' : (((end - start) * 1000) / Math.max(calls, 1)).toFixed(2);
    const cpu = `CPU ms/call: workerd ${perCall(before.workerd, descendantCpuSeconds('workerd'))}, postgres ${perCall(before.pg, postgresCpuSeconds(cluster))}`;
    const statements = ((proxy.queries - before.statements) / Math.max(calls, 1)).toFixed(3);
    results.push({ rate, p50 });
    const non2xx = failed ? ` (${failed} non-2xx)` : '';
    console.log(
      `${kind.name}: ${rate.toFixed(0)} calls/s, p50 ${p50.toFixed(1)} ms, ${statements} statements/call, ${cpu}${non2xx}${wrong}`,
    );
  }
  log(`load average ${loadAverage()}`);
  const geoMean = (values: number[]) => Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
  const rates = geoMean(results.map((r) => Math.max(r.rate, 1e-9)));
  const p50s = geoMean(results.map((r) => Math.max(r.p50, 1e-9)));
  console.log(`call: ${rates.toFixed(0)} calls/s geo-mean, p50 ${p50s.toFixed(1)} ms`);
  await stopAll();
} catch (error) {
  await stopAll();
  console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}

/** The four kinds of request, on contracts, tokens and holders the simulated ledger has. */
function requestKinds(ledger: LedgerSnapshot): Kind[] {
  const simToken = artifact('SimToken');
  const erc20 = ledger.contracts.find((c) => c.kind === 'SimToken' && Object.keys(c.erc20Balances).length > 0);
  const holding = ledger.tokenBalances.find(
    (b) => BigInt(b.balance) > 0n && ledger.tokens.some((t) => t.id === b.token && t.type === 'FUNGIBLE_COMMON'),
  );
  if (!erc20 || !holding) throw new Error('the simulated ledger has no SimToken holder or HTS token holder');
  const receiver = ledger.accounts.find((a) => a.id !== holding.account && a.tokens.includes(holding.token));
  if (!receiver) throw new Error('the simulated ledger has no second account associated with an HTS token');
  const addressOf = (id: string) => {
    const account = ledger.accounts.find((a) => a.id === id);
    return account?.evmAddress ? `0x${account.evmAddress}` : longZeroEvmAddress(numOf(id));
  };
  const [holder = '', balance = '0'] = Object.entries(erc20.erc20Balances).find(([, b]) => BigInt(b) > 0n) ?? [];
  const addressBytes = (id: string) => Buffer.from(addressOf(id).slice(2), 'hex');
  return [
    {
      name: 'pure',
      body: { to: longZeroEvmAddress(numOf(erc20.id)), data: hex(callData(simToken, 'decimals()', [])) },
      expected: new RegExp(`^0x${hex(word(6n)).slice(2)}$`),
    },
    {
      name: 'erc20-balanceOf-redirect',
      body: {
        to: longZeroEvmAddress(numOf(holding.token)),
        data: hex(callData(simToken, 'balanceOf(address)', [addressWord(addressBytes(holding.account))])),
      },
      expected: new RegExp(`^0x${hex(word(BigInt(holding.balance))).slice(2)}$`),
    },
    {
      name: 'estimate-transfer',
      body: {
        from: addressOf(holder),
        to: longZeroEvmAddress(numOf(erc20.id)),
        estimate: true,
        data: hex(
          callData(simToken, 'transfer(address,uint256)', [
            addressWord(addressBytes(holding.account)),
            word(BigInt(balance) / 2n),
          ]),
        ),
      },
      expected: /^0x[0-9a-f]{16}$/,
    },
    {
      name: 'estimate-hts-transfer',
      body: {
        from: addressOf(holding.account),
        to: longZeroEvmAddress(numOf(holding.token)),
        estimate: true,
        data: hex(callData(simToken, 'transfer(address,uint256)', [addressWord(addressBytes(receiver.id)), word(1n)])),
      },
      expected: /^0x[0-9a-f]{16}$/,
    },
  ];
}

/** `connections` clients posting `kind` back to back for `ms`; the rate and the median latency of the answers. */
async function load(
  baseUrl: string,
  kind: Kind,
  ms: number,
): Promise<{ rate: number; p50: number; failed: number; calls: number }> {
  const latencies: number[] = [];
  let failed = 0;
  const body = JSON.stringify(kind.body);
  const until = performance.now() + ms;
  const client = async (index: number) => {
    const headers = { 'content-type': 'application/json', 'cf-connecting-ip': `198.18.${index >> 8}.${index & 255}` };
    while (performance.now() < until) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/v1/contracts/call`, { method: 'POST', headers, body });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200) failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, (_, i) => client(i)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const calls = latencies.length;
  return { rate: calls / elapsed, p50: latencies[Math.floor(calls / 2)] ?? 0, failed, calls };
}

/** The `result` of one call of `kind`, or its status and body when it fails. */
async function answerOf(baseUrl: string, kind: Kind): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(kind.body),
  });
  const text = await response.text();
  return response.status === 200
    ? String((JSON.parse(text) as { result: unknown }).result)
    : `${response.status} ${text}`;
}
