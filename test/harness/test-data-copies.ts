/**
 * The files the repository copies from the project's shared folder, and the byte comparison that keeps each copy
 * equal to its source (`npm run test-data:refresh` copies, test-data-copies.test.ts compares).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './shared-dir.ts';

export interface Copy {
  /** A file or folder of the shared folder, relative to it. */
  readonly from: string;
  /** Where the repository keeps it, relative to the repository's root. */
  readonly to: string;
}

export const COPIES: readonly Copy[] = [
  { from: 'conformance', to: 'test/data/conformance' },
  { from: 'fixtures/streams', to: 'test/data/fixtures/streams' },
  { from: 'reference/openapi.yml', to: 'test/data/reference/openapi.yml' },
  { from: 'perf/reference-bodies', to: 'test/data/perf/reference-bodies' },
  // What `npm run ingest -- --network NAME` verifies with until the stream updates 0.0.102: shipped, not test data.
  { from: 'fixtures/streams/bootstrap-addressbook', to: 'ingest/bootstrap-addressbook' },
];

/** The files under `root` (or `root` itself when it is a file), relative to `root`, sorted. */
export function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  if (statSync(root).isFile()) return [''];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(path.join(root, file)).isFile())
    .sort();
}

/** Every way the repository's copy differs from its source: a file only on one side, or different bytes. */
export function differences(copy: Copy, upstream: string): string[] {
  const source = path.join(upstream, copy.from);
  const target = path.join(REPO_ROOT, copy.to);
  const sourceFiles = filesUnder(source);
  const targetFiles = new Set(filesUnder(target));
  const found: string[] = [];
  for (const file of sourceFiles) {
    const name = path.join(copy.to, file);
    if (!targetFiles.delete(file)) found.push(`${name}: missing (${path.join(copy.from, file)} has it)`);
    else if (!readFileSync(path.join(source, file)).equals(readFileSync(path.join(target, file))))
      found.push(`${name}: differs from ${path.join(copy.from, file)}`);
  }
  for (const file of targetFiles) found.push(`${path.join(copy.to, file)}: not in the shared folder's ${copy.from}`);
  return found;
}
