/**
 * The simulated network as a child process of the local stack: `node simulator/main.ts --live --continue` into
 * a directory, so a demo ingest has streams to read (a new file every 2 s, the chain continued across restarts).
 * Resolves once the address book the ingest must be given is on disk; stopping sends SIGTERM, after which the
 * simulator finishes the file in hand and writes its model.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ADDRESS_BOOK_FILE } from '../../simulator/write/layout.ts';
import { stopChild } from './stop-child.ts';
import { REPO_ROOT } from './worker-process.ts';

export interface SimulatorProcess {
  readonly child: ChildProcess;
  /** The directory holding the streams, laid out like a bucket: the ingest's `--source`. */
  readonly out: string;
  /** The nodes' address book: the ingest's `--address-book`. */
  readonly addressBook: string;
  stop(): Promise<void>;
}

export async function startSimulatorProcess(options: {
  out: string;
  tps?: number;
  output?: 'inherit' | 'ignore';
  /** The consensus nodes' first gRPC port (node 0); none when absent. */
  nodePort?: number;
  /** The generated load (default on). */
  load?: boolean;
}): Promise<SimulatorProcess> {
  const args = ['--max-semi-space-size=64', path.join(REPO_ROOT, 'simulator/main.ts')];
  args.push('--out', options.out, '--live', '--continue', '--tps', String(options.tps ?? 10), '--quiet');
  if (options.nodePort) args.push('--node-port', String(options.nodePort));
  if (options.load === false) args.push('--load', 'off');
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    // The IPC channel is how the simulator notices that this process died without stopping it.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // Passed on as they come; read here too, for the line that says the nodes listen and a failure's last words.
  let said = '';
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    from?.on('data', (chunk: Buffer) => {
      if (said.length < 65_536) said += chunk.toString();
      if (options.output !== 'ignore') to.write(chunk);
    });
  }
  const addressBook = path.join(options.out, ADDRESS_BOOK_FILE);
  const handle: SimulatorProcess = {
    child,
    out: options.out,
    addressBook,
    stop: () => stopChild(child),
  };
  // With nodes, the address book is written before they listen: wait for the line that says they do.
  const nodesListening = options.nodePort ? nodesUp(child, () => said) : Promise.resolve();
  // Awaited below; a failure before then is the address book's wait's to report.
  nodesListening.catch(() => {});
  for (let waited = 0; !existsSync(addressBook); waited += 100) {
    if (child.exitCode !== null) throw new Error(`the simulator exited with code ${child.exitCode}`);
    if (waited > 30_000) {
      await handle.stop();
      throw new Error('the simulator wrote no address book within 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await nodesListening;
  return handle;
}

/** Resolves when the simulator says its nodes listen; rejects when it exits first (a port in use, say). */
function nodesUp(child: ChildProcess, said: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (!said().includes('"nodes listening"')) return;
      child.stdout?.off('data', look);
      resolve();
    };
    child.stdout?.on('data', look);
    child.once('exit', (code) => reject(new Error(`the simulator exited with code ${code}: ${lastLine(said())}`)));
  });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
