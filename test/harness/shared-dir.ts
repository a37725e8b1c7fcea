import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The directory shared by every engineer of the project (conformance kit, fixtures, design notes): `../shared`
 * next to the repository, or `EDGE_MIRROR_SHARED` when set.
 */
export function sharedDir(): string {
  const override = process.env.EDGE_MIRROR_SHARED;
  return override ? path.resolve(override) : path.resolve(REPO_ROOT, '../shared');
}
