import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The test data the project's shared folder provides (conformance kit, stream fixtures, the reference's OpenAPI
 * document, the reference's response bodies), as the repository carries it: `test/data`, laid out as `../shared`
 * is, so `path.join(sharedDir(), 'conformance/cases')` names the same files in both (test/data/README.md).
 */
export function sharedDir(): string {
  return path.join(REPO_ROOT, 'test/data');
}

/**
 * The project's shared folder itself, which the repository's copies come from and which holds the perf kit the
 * benchmarks run: `../shared` next to the repository, or `EDGE_MIRROR_SHARED` when set. It may not exist.
 */
export function upstreamSharedDir(): string {
  const override = process.env.EDGE_MIRROR_SHARED;
  return override ? path.resolve(override) : path.resolve(REPO_ROOT, '../shared');
}
