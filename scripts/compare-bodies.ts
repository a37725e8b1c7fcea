/**
 * `npm run compare:bodies [-- --only RE]`
 *
 * Byte comparison with the reference: serves the perf dataset as `npm run bench:rest` does (edge cache and rate
 * limit off), requests each URL of test/data/perf/reference-bodies/index.json and compares the body, uncompressed,
 * with the reference's own bytes for that URL. Prints one line per URL (`same` or where the bodies first differ)
 * and exits 1 when any differs: this is how an operator checks a migration, so JSON-equal is not enough.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { proxyTarget, startSqlProxy } from '../db/local/sql-proxy.ts';
import { sharedDir } from '../test/harness/shared-dir.ts';
import { firstDifference } from './compare-bodies/first-difference.ts';
import { freePort } from './local-stack/free-port.ts';
import { openPerfDatabase } from './local-stack/perf-dataset.ts';
import { startWorkerProcess } from './local-stack/worker-process.ts';

answerHelp(
  process.argv.slice(2),
  `usage: npm run compare:bodies [-- --only RE]\n\nThe bodies of the benchmark URLs on the perf dataset compared byte for byte with the reference's own\n(test/data/perf/reference-bodies); exits 1 on a difference.`,
);

interface ReferenceBody {
  file: string;
  url: string;
  status: number;
}

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new RegExp(args[onlyAt + 1] ?? '.') : undefined;
const log = (message: string) => console.error(`compare: ${message}`);

const bodiesDir = path.join(sharedDir(), 'perf/reference-bodies');
const index = JSON.parse(readFileSync(path.join(bodiesDir, 'index.json'), 'utf8')) as ReferenceBody[];
const selected = only ? index.filter((entry) => only.test(entry.url)) : index;

const stops: (() => Promise<void>)[] = [];
let differing = 0;
try {
  const database = await openPerfDatabase(log);
  stops.push(() => database.stop());
  const proxy = await startSqlProxy({ port: 0, targets: [proxyTarget(database.url, database.socketDir)] });
  stops.push(() => proxy.close());
  const worker = await startWorkerProcess({
    port: await freePort(),
    vars: {
      DATABASE_URL: database.url,
      DB_LOCAL_PROXY: proxy.address,
      HIERO_MIRROR_REST_EDGE_CACHE_ENABLED: 'false',
      HIERO_MIRROR_REST_EDGE_RATELIMIT_ENABLED: 'false',
    },
    output: 'ignore',
  });
  stops.push(() => worker.stop());
  for (const entry of selected) {
    const expected = readFileSync(path.join(bodiesDir, entry.file), 'utf8');
    const response = await fetch(worker.baseUrl + entry.url, { headers: { 'accept-encoding': 'identity' } });
    const actual = await response.text();
    const difference = firstDifference(expected, actual);
    if (response.status !== entry.status) {
      differing++;
      console.log(`${entry.file} differs: status ${response.status}, the reference's ${entry.status}  ${entry.url}`);
    } else if (difference) {
      differing++;
      console.log(`${entry.file} differs at character ${difference.at}: ${difference.context}  ${entry.url}`);
    } else {
      console.log(`${entry.file} same (${expected.length} bytes)  ${entry.url}`);
    }
  }
  console.log(`${selected.length - differing} same, ${differing} differ`);
} catch (error) {
  differing = -1;
  console.error(`compare failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
}
process.exit(differing === 0 ? 0 : 1);
