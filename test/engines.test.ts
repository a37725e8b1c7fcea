import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface LockEntry {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
}

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/**
 * `npm ci` runs on the machine's Node, which may be older than the Node 22 the scripts run on (docs/adr/0002): every
 * package the lock file installs must accept the oldest Node the project's `engines` admits, or npm warns
 * `EBADENGINE` on a Node the README calls enough (docs/adr/0051-installs-on-node-20.md).
 */
describe('engines', () => {
  const oldest = semver.minVersion(manifest.engines.node);

  it('names a Node 20 as the oldest supported', () => {
    expect(oldest?.major).toBe(20);
  });

  it('installs no package whose engines refuse the oldest supported Node', () => {
    const refusing: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : (entry.engines as { node?: string } | undefined)?.node;
      if (where === '' || range === undefined || oldest === null) continue;
      if (!semver.satisfies(oldest, range)) refusing.push(`${where}@${entry.version}: node ${range}`);
    }
    expect(refusing).toEqual([]);
  });
});
