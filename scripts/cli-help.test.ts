import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './local-stack/worker-process.ts';

/** Every command of the README prints its usage on --help and exits 0, starting nothing. */

const run = promisify(execFile);

const COMMANDS: readonly (readonly [string, string])[] = [
  ['start', 'usage: npm start'],
  ['simulate', 'usage: npm run simulate -- --out <dir>'],
  ['ingest', 'usage: npm run ingest -- --source'],
  ['db:migrate', 'usage: DATABASE_URL=postgres://… npm run db:migrate'],
  ['conformance', 'usage: npm run conformance'],
  ['compare:bodies', 'usage: npm run compare:bodies'],
  ['bench:rest', 'usage: npm run bench:rest'],
  ['bench:floor', 'usage: npm run bench:floor'],
  ['bench:latency', 'usage: npm run bench:latency'],
  ['bench:explorer', 'usage: npm run bench:explorer'],
  ['bench:ingest', 'usage: npm run bench:ingest'],
  ['bench:call', 'usage: npm run bench:call'],
  ['bench:rosetta', 'usage: npm run bench:rosetta'],
  ['bench:stream', 'usage: npm run bench:stream'],
  ['bench:submit', 'usage: npm run bench:submit'],
  ['test:sdk-integration', 'usage: npm run test:sdk-integration'],
  ['check:bundle', 'usage: npm run check:bundle'],
  ['test:reliability', 'usage: npm run test:reliability'],
  ['examples', 'usage: npm run examples'],
  ['grpc', 'usage: npm run grpc'],
  ['test-data:refresh', 'usage: npm run test-data:refresh'],
];

/** Scripts that only run a tool with its own help (vitest, biome, tsc, drizzle-kit) or another script's variant. */
const TOOL_SCRIPTS = ['test', 'lint', 'typecheck', 'db:generate', 'conformance:ci'];

describe('--help', () => {
  it("covers every script of package.json but the tools'", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const own = Object.keys(scripts).filter((name) => !TOOL_SCRIPTS.includes(name));
    expect(COMMANDS.map(([script]) => script).sort()).toEqual(own.sort());
  });

  it.each(COMMANDS)('npm run %s -- --help prints its usage and exits 0', async (script, usage) => {
    const { stdout } = await run('npm', ['run', '--silent', script, '--', '--help'], { cwd: REPO_ROOT });
    expect(stdout.startsWith(usage), stdout).toBe(true);
  });
});
