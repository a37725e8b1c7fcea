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
}): Promise<SimulatorProcess> {
  const args = ['--max-semi-space-size=64', path.join(REPO_ROOT, 'simulator/main.ts')];
  args.push('--out', options.out, '--live', '--continue', '--tps', String(options.tps ?? 10), '--quiet');
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    // The IPC channel is how the simulator notices that this process died without stopping it.
    stdio: ['ignore', options.output ?? 'inherit', options.output ?? 'inherit', 'ipc'],
  });
  const addressBook = path.join(options.out, ADDRESS_BOOK_FILE);
  const handle: SimulatorProcess = {
    child,
    out: options.out,
    addressBook,
    stop: () => stopChild(child),
  };
  for (let waited = 0; !existsSync(addressBook); waited += 100) {
    if (child.exitCode !== null) throw new Error(`the simulator exited with code ${child.exitCode}`);
    if (waited > 30_000) {
      await handle.stop();
      throw new Error('the simulator wrote no address book within 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return handle;
}
