import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/local-stack/free-port.ts';

const MODULE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'embedded-postgres.ts');

/** Runs `code` (an ES module) in a Node process of its own: its exit code and output. */
function runNode(code: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve({ code: exitCode, output }));
  });
}

async function gone(file: string, withinMs: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < withinMs; ) {
    if (!existsSync(file)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !existsSync(file);
}

describe('the embedded Postgres', () => {
  it('keeps the exit code of the process that started it, and is shut down when that process dies', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'edge-mirror-pg-'));
    // as root, the server runs as the system's postgres user, which must reach the cluster directory
    await chmod(dir, 0o755);
    try {
      const options = JSON.stringify({ dir: path.join(dir, 'cluster'), port: await freePort(), database: 'x' });
      const { code, output } = await runNode(`
        import { startLocalPostgres } from ${JSON.stringify(MODULE)};
        await startLocalPostgres(${options});
        console.log('started');
        process.exitCode = 3;
        setTimeout(() => { throw new Error('crashed with the server running'); }, 0);`);
      expect(output).toContain('started');
      // the uncaught error's code (1); before, the package's exit hooks turned a process's code into 0 or 1
      expect(code).toBe(1);
      expect(await gone(path.join(dir, 'cluster', 'postmaster.pid'), 15_000)).toBe(true);
    } finally {
      // a server left running by a failure here is stopped before its directory goes
      const pidFile = path.join(dir, 'cluster', 'postmaster.pid');
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
      await gone(pidFile, 15_000);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
