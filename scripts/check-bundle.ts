/**
 * `npm run check:bundle [-- --budget-kib N]`
 *
 * Builds the Worker exactly as `wrangler deploy` uploads it (`--dry-run`) and fails when its modules, gzipped as
 * Cloudflare measures them, outgrow the budget: 1,024 KiB by default. The Workers Paid plan (which the Durable Objects
 * need) refuses a Worker over 10 MiB compressed and the Free plan one over 3 MiB; the budget stays well inside both
 * because every new isolate parses the whole bundle before its first request (1 s at most), so weight is latency for
 * the first user of each isolate long before it is a refused deploy. CI runs it (.ci/run).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { answerHelp } from '../common/cli-help.ts';
import { runWrangler } from './local-stack/worker-process.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run check:bundle [-- --budget-kib N]\n\nBuilds the bundle wrangler deploy uploads and fails when its modules gzipped exceed the budget (default 1024 KiB).`,
);

const args = process.argv.slice(2);
const at = args.indexOf('--budget-kib');
const budgetKib = at >= 0 ? Number(args[at + 1]) : 1024;
if (!(budgetKib > 0)) {
  console.error('check:bundle: --budget-kib takes a positive number of KiB');
  process.exit(2);
}
/** What Cloudflare counts: the uploaded modules, not the source maps wrangler writes beside them. */
const MODULE = /\.(js|mjs|wasm)$/;

const outdir = await mkdtemp(path.join(tmpdir(), 'edge-mirror-bundle-'));
try {
  await runWrangler(['deploy', '--dry-run', '--outdir', outdir]);
  let raw = 0;
  let gzipped = 0;
  for (const name of (await readdir(outdir)).filter((file) => MODULE.test(file))) {
    const bytes = await readFile(path.join(outdir, name));
    raw += bytes.length;
    gzipped += gzipSync(bytes, { level: 9 }).length;
  }
  const kib = (n: number) => (n / 1024).toFixed(0);
  const within = gzipped <= budgetKib * 1024;
  console.log(
    `bundle: ${kib(gzipped)} KiB gzip (${kib(raw)} KiB raw), budget ${budgetKib} KiB: ${within ? 'within' : 'OVER BUDGET'}`,
  );
  if (!within) process.exitCode = 1;
} finally {
  await rm(outdir, { recursive: true, force: true });
}
