import { spawn } from 'node:child_process';
import { REPO_ROOT } from './worker-process.ts';

/** Runs a Node script of the repository to its end (output dropped, errors shown); rejects on a non-zero exit. */
export function runNode(argv: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=64', ...argv], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...env },
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited with ${code}`))));
  });
}
