import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Hbar, PrivateKey, Status, TransferTransaction } from '@hiero-ledger/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { GENESIS_PRIVATE_KEY_DER } from '../simulator/network/genesis.ts';
import { freePort, isPortFree } from './local-stack/free-port.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';

/**
 * `npm start` as a user runs it, in clones of their own (the repository's files and a link to its node_modules), so
 * the test never meets the developer's own `.data/pg`: two clones starting at the same moment both come up (they race
 * for port 54320), a second start of one clone says in one line why it cannot, and SIGTERM or SIGINT to the npm process
 * leaves nothing of either stack running, nor anything in the temp directory (each start has one of its own).
 */

const clones: string[] = [];
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.pid && child.exitCode === null) signalGroup(child.pid, 'SIGKILL');
  for (const dir of clones) rmSync(dir, { recursive: true, force: true });
});

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** A clone of the repository as it is in the working tree, without `.data`, `.wrangler` or `node_modules`. */
function cloneRepository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'edge-mirror-clone-'));
  clones.push(dir);
  // Run as root, the embedded Postgres runs as the `postgres` user, which must reach the clone's `.data`.
  chmodSync(dir, 0o755);
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '');
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

interface Start {
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the first line saying the stack is up or that the start failed. */
  readonly outcome: Promise<string>;
  readonly exited: Promise<number | null>;
  /** The start's temp directory. */
  readonly tmp: string;
}

/** A temp directory of its own for one start (open to the embedded Postgres's user, which initdb runs as). */
function privateTmp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'edge-mirror-start-tmp-'));
  clones.push(dir);
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * What a start left in its temp directory. npm's own module compile cache (`node-compile-cache`, which npm on Node 22
 * keeps there and every npm command reuses) is npm's, not the start's.
 */
function leftInTmp(tmp: string): string[] {
  return readdirSync(tmp).filter((name) => name !== 'node-compile-cache');
}

/** `npm start` in its own session, so that every process of its stack can be found by the session id. */
/** The local node's ports, none served: each test's stacks would otherwise meet on 50211, 5551, 8545 and 8084. */
const NO_LOCAL_NODE_PORTS = {
  LOCAL_NODE_CONSENSUS_PORT: '0',
  LOCAL_NODE_REST_PORT: '0',
  LOCAL_NODE_WEB3_PORT: '0',
  LOCAL_NODE_REST_JAVA_PORT: '0',
};

function npmStart(cwd: string, env: Record<string, string>, tmp = privateTmp()): Start {
  const child = spawn('npm', ['start'], {
    cwd,
    env: { ...process.env, TMPDIR: tmp, ...NO_LOCAL_NODE_PORTS, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  const outcome = new Promise<string>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.startsWith('edge-mirror is up') || l.startsWith('start failed'));
      if (line) resolve(line);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before saying anything:\n${output}`)));
  });
  outcome.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, outcome, exited, tmp, output: () => output };
}

/** The processes of a session (the npm process's own id): what is left of a stack. */
function sessionProcesses(sid: number): string[] {
  const left: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command's closing parenthesis: state, ppid, pgrp, session.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(session) === sid && state !== 'Z') left.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
    } catch {
      // ended while being read
    }
  }
  return left;
}

async function gone(sid: number, withinMs: number): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = sessionProcesses(sid);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `npm run examples` against the stack on `port`, asked again until the chain has what it needs (a minute at most). */
async function examplesOnceReady(cwd: string, port: number): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answer = spawnSync('npm', ['run', '--silent', 'examples', '--', '--port', String(port)], {
      cwd,
      encoding: 'utf8',
    });
    if (answer.status === 0 || Date.now() > deadline) return answer.stdout + answer.stderr;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

describe('npm start', () => {
  it('starts in two clones at once, refuses a second start of a clone in one line, and stops on SIGTERM or SIGINT to npm', async () => {
    const [first, second] = [cloneRepository(), cloneRepository()];
    const [firstPort, secondPort] = [await freePort(), await freePort()];
    const [firstGrpc, secondGrpc] = [await freePort(), await freePort()];
    const a = npmStart(first, { PORT: String(firstPort), HIERO_MIRROR_GRPC_PORT: String(firstGrpc) });
    const b = npmStart(second, { PORT: String(secondPort), HIERO_MIRROR_GRPC_PORT: String(secondGrpc) });
    expect(await a.outcome).toMatch(`edge-mirror is up: API http://localhost:${firstPort}/api/v1`);
    expect(await b.outcome).toMatch(`edge-mirror is up: API http://localhost:${secondPort}/api/v1`);
    for (const port of [firstPort, secondPort]) {
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/blocks?limit=1`)).status).toBe(200);
    }
    // The README's contract call examples, with the fresh chain's addresses, once it has deployed its contracts.
    const examples = await examplesOnceReady(first, firstPort);
    expect(examples.match(/^# answered 200: \{"result":"0x[0-9a-f]+"\}$/gm)).toHaveLength(3);

    const again = npmStart(first, {
      PORT: String(await freePort()),
      HIERO_MIRROR_GRPC_PORT: String(await freePort()),
      SIMULATE: '0',
    });
    expect(await again.outcome).toMatch(
      /^start failed: the embedded database \(\.data\/pg\) is in use by another npm start of this clone \(PostgreSQL PID \d+\): stop that one first, or serve its database on another port: DATABASE_URL=postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/mirror_node PORT=8788 HIERO_MIRROR_GRPC_PORT=5601 npm start$/,
    );
    expect(await again.exited).toBe(1);
    expect(leftInTmp(again.tmp)).toEqual([]);

    // What a process manager sends, and what an interrupt sends, each to the npm process alone.
    for (const [start, signal] of [
      [a, 'SIGTERM'],
      [b, 'SIGINT'],
    ] as const) {
      const pid = start.child.pid as number;
      expect(sessionProcesses(pid).length).toBeGreaterThanOrEqual(5);
      process.kill(pid, signal);
    }
    for (const start of [a, b]) {
      expect(await gone(start.child.pid as number, 10_000)).toEqual([]);
      expect(leftInTmp(start.tmp)).toEqual([]);
    }
  }, 360_000);

  it('stops what it started when npm is killed outright, passing no signal on', async () => {
    const port = await freePort();
    const start = npmStart(cloneRepository(), {
      PORT: String(port),
      HIERO_MIRROR_GRPC_PORT: String(await freePort()),
      SIMULATE: '0',
    });
    expect(await start.outcome).toMatch(`edge-mirror is up: API http://localhost:${port}/api/v1`);
    const pid = start.child.pid as number;
    expect(sessionProcesses(pid).length).toBeGreaterThanOrEqual(3);
    process.kill(pid, 'SIGKILL');
    expect(await gone(pid, 10_000)).toEqual([]);
    expect(leftInTmp(start.tmp)).toEqual([]);
  }, 240_000);

  it('is a local network: the banner names the operator and endpoints, an SDK transfer lands on the REST API alias', async () => {
    const [port, grpc, rest, web3, restJava] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    let consensus = await freePort();
    while (!(await Promise.all([1, 2, 3].map((n) => isPortFree(consensus + n)))).every(Boolean))
      consensus = await freePort();
    const start = npmStart(cloneRepository(), {
      PORT: String(port),
      HIERO_MIRROR_GRPC_PORT: String(grpc),
      LOCAL_NODE_CONSENSUS_PORT: String(consensus),
      LOCAL_NODE_REST_PORT: String(rest),
      LOCAL_NODE_WEB3_PORT: String(web3),
      LOCAL_NODE_REST_JAVA_PORT: String(restJava),
      SIMULATE_LOAD: '0',
    });
    expect(await start.outcome).toMatch(`edge-mirror is up: API http://localhost:${port}/api/v1`);
    for (let waited = 0; !start.output().includes('generated load') && waited < 5_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(start.output()).toContain(`local network: consensus nodes 127.0.0.1:${consensus} (0.0.3)`);
    expect(start.output()).toContain(`operator 0.0.2, key ${GENESIS_PRIVATE_KEY_DER}`);
    expect(start.output()).toContain(`mirror REST http://localhost:${rest}/api/v1`);
    expect(start.output()).toContain('generated load off');

    const client = Client.forNetwork({ [`127.0.0.1:${consensus}`]: '0.0.3' }).setOperator(
      '0.0.2',
      PrivateKey.fromStringDer(GENESIS_PRIVATE_KEY_DER),
    );
    try {
      const response = await new TransferTransaction()
        .addHbarTransfer('0.0.2', Hbar.fromTinybars(-5))
        .addHbarTransfer('0.0.98', Hbar.fromTinybars(5))
        .execute(client);
      expect((await response.getReceipt(client)).status).toBe(Status.Success);
      const [payer, validStart] = response.transactionId.toString().split('@');
      const [seconds, nanos] = (validStart ?? '').split('.');
      const id = `${payer}-${seconds}-${(nanos ?? '').padStart(9, '0')}`;
      let status = 0;
      for (let waited = 0; status !== 200 && waited < 15_000; waited += 250) {
        status = (await fetch(`http://127.0.0.1:${rest}/api/v1/transactions/${id}`)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status).toBe(200);
      // With the load off the ledger holds only what clients sent, and the contract-call port answers too.
      const answer = await fetch(`http://127.0.0.1:${web3}/api/v1/transactions?transactiontype=cryptotransfer`);
      const listed = (await answer.json()) as { transactions: { transaction_id: string }[] };
      expect(listed.transactions.map((t) => t.transaction_id)).toEqual([id]);
    } finally {
      client.close();
    }
    process.kill(start.child.pid as number, 'SIGTERM');
    expect(await gone(start.child.pid as number, 10_000)).toEqual([]);
  }, 240_000);
});
