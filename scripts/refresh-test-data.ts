/**
 * `npm run test-data:refresh`: replaces the repository's copies of the shared folder's test data (COPIES) with the
 * shared folder's current files; `git status` then shows what changed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../common/cli-help.ts';
import { REPO_ROOT, upstreamSharedDir } from '../test/harness/shared-dir.ts';
import { COPIES, filesUnder } from '../test/harness/test-data-copies.ts';

answerHelp(
  process.argv.slice(2),
  'usage: npm run test-data:refresh\n\nCopies the test data (test/data/README.md) again from the shared folder (../shared, or EDGE_MIRROR_SHARED).',
);

const upstream = upstreamSharedDir();
if (!existsSync(upstream)) {
  console.error(
    `test-data:refresh: no shared folder at ${upstream} (put it beside the repository or set EDGE_MIRROR_SHARED)`,
  );
  process.exit(2);
}
for (const copy of COPIES) {
  const source = path.join(upstream, copy.from);
  if (!existsSync(source)) {
    console.error(`test-data:refresh: ${source} does not exist`);
    process.exit(2);
  }
  const target = path.join(REPO_ROOT, copy.to);
  rmSync(target, { recursive: true, force: true });
  const files = filesUnder(source);
  for (const file of files) {
    const to = path.join(target, file);
    mkdirSync(path.dirname(to), { recursive: true });
    // Written, not copied: the shared folder's files are read-only and the copies must stay editable by git.
    writeFileSync(to, readFileSync(path.join(source, file)));
  }
  console.log(`test-data:refresh: ${copy.from} -> ${copy.to} (${files.length} file${files.length === 1 ? '' : 's'})`);
}
