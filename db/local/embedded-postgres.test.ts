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

/** Runs `script(options)` against a fresh cluster directory, then removes it (stopping a server left running). */
async function withClusterDir(script: (options: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'edge-mirror-pg-'));
  // as root, the server runs as the system's postgres user, which must reach the cluster directory
  await chmod(dir, 0o755);
  const pidFile = path.join(dir, 'cluster', 'postmaster.pid');
  try {
    await script(JSON.stringify({ dir: path.join(dir, 'cluster'), port: await freePort(), database: 'x' }));
  } finally {
    if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
    await gone(pidFile, 15_000);
    await rm(dir, { recursive: true, force: true });
  }
}

const IMPORT = `import { startLocalPostgres } from ${JSON.stringify(MODULE)};`;

describe('the embedded Postgres', () => {
  it("leaves the exit code of the process that used it alone (the package's own hook made it 0)", async () => {
    await withClusterDir(async (options) => {
      const { code, output } = await runNode(`${IMPORT}
        const server = await startLocalPostgres(${options});
        await server.stop();
        console.log('stopped');
        process.exitCode = 3;`);
      expect(output).toContain('stopped');
      expect(code).toBe(3);
    });
  });

  it('is shut down when the process that started it dies with it running', async () => {
    await withClusterDir(async (options) => {
      const { code, output } = await runNode(`${IMPORT}
        await startLocalPostgres(${options});
        console.log('started');
        setTimeout(() => { throw new Error('crashed with the server running'); }, 0);`);
      expect(output).toContain('started');
      expect(code).toBe(1);
      expect(await gone(path.join(JSON.parse(options).dir, 'postmaster.pid'), 15_000)).toBe(true);
    });
  });
});
