/**
 * `npm run check:bundle [-- --budget-kib N]`
 *
 * Builds the Worker exactly as `wrangler deploy` uploads it (`--dry-run`) and fails when its code, gzipped as
 * Cloudflare measures it, outgrows the budget: 1,024 KiB by default. The Workers Paid plan (which the Durable Objects
 * need) refuses a Worker over 10 MiB compressed and the Free plan one over 3 MiB; the budget stays well inside both
 * because every new isolate parses the whole of the code before its first request (1 s at most), so weight is latency
 * for the first user of each isolate long before it is a refused deploy. Data modules (wrangler.toml `[[rules]]`:
 * the docs page's Swagger UI files) are bytes no isolate parses: they are reported, and counted against the plan's
 * limit, not the budget. CI runs it (.ci/run).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { answerHelp } from '../common/cli-help.ts';
import { runWrangler } from './local-stack/worker-process.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run check:bundle [-- --budget-kib N]\n\nBuilds the bundle wrangler deploy uploads and fails when its code gzipped exceeds the budget (default 1024 KiB).`,
);

const args = process.argv.slice(2);
const at = args.indexOf('--budget-kib');
const budgetKib = at >= 0 ? Number(args[at + 1]) : 1024;
if (!(budgetKib > 0)) {
  console.error('check:bundle: --budget-kib takes a positive number of KiB');
  process.exit(2);
}
/** The Workers Paid plan's limit on a Worker's modules, compressed. */
const PLAN_LIMIT_KIB = 10 * 1024;
/** wrangler bundles all JavaScript into the entry module (`index.js`); WebAssembly modules are code too. */
const isCode = (name: string) => name === 'index.js' || name.endsWith('.wasm');
/** What wrangler writes beside the modules and Cloudflare does not count. */
const isModule = (name: string) => !name.endsWith('.map') && name !== 'README.md';

const outdir = await mkdtemp(path.join(tmpdir(), 'edge-mirror-bundle-'));
try {
  await runWrangler(['deploy', '--dry-run', '--outdir', outdir]);
  const size = { code: { raw: 0, gzipped: 0 }, data: { raw: 0, gzipped: 0 } };
  const entries = await readdir(outdir, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((e) => e.isFile() && isModule(e.name))) {
    const bytes = await readFile(path.join(entry.parentPath, entry.name));
    const kind = isCode(entry.name) && entry.parentPath === outdir ? size.code : size.data;
    kind.raw += bytes.length;
    kind.gzipped += gzipSync(bytes, { level: 9 }).length;
  }
  const kib = (n: number) => (n / 1024).toFixed(0);
  const within = size.code.gzipped <= budgetKib * 1024;
  const total = size.code.gzipped + size.data.gzipped;
  console.log(
    `bundle: code ${kib(size.code.gzipped)} KiB gzip (${kib(size.code.raw)} KiB raw), budget ${budgetKib} KiB: ` +
      `${within ? 'within' : 'OVER BUDGET'}; data modules ${kib(size.data.gzipped)} KiB gzip (${kib(size.data.raw)} KiB raw); ` +
      `${kib(total)} KiB in all against the plan's ${kib(PLAN_LIMIT_KIB * 1024)} KiB`,
  );
  if (!within || total > PLAN_LIMIT_KIB * 1024) process.exitCode = 1;
} finally {
  await rm(outdir, { recursive: true, force: true });
}
