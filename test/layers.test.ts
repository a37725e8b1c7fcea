import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Rule {
  /** The folder whose source files the rule holds (tests and the folders in `except` aside). */
  readonly folder: string;
  readonly except?: readonly string[];
  /** Folders of the repository those files must not import. */
  readonly forbidden: readonly string[];
  /** Packages or Node modules those files must not import. */
  readonly forbiddenPackages?: readonly string[];
}

const everyPart = ['common/', 'db/', 'proto/', 'workers/', 'ingest/', 'grpc/', 'simulator/', 'scripts/', 'test/'];
const ioModules = ['node:fs', 'node:fs/promises', 'node:net', 'node:http', 'node:https', 'node:child_process', 'pg'];

/**
 * The layering: `common/` (code every part shares, platform-neutral unless it says otherwise) sits
 * below everything, `db/` below the services, and the services (the Worker, the ingest, the gRPC API, the simulated
 * network) do not reach into one another or into the scripts that run them.
 */
const rules: readonly Rule[] = [
  { folder: 'common/', forbidden: everyPart.filter((part) => part !== 'common/') },
  { folder: 'proto/', forbidden: everyPart.filter((part) => part !== 'proto/' && part !== 'common/') },
  { folder: 'db/', forbidden: ['workers/', 'ingest/', 'grpc/', 'simulator/', 'scripts/', 'test/'] },
  { folder: 'workers/', forbidden: ['ingest/', 'grpc/', 'simulator/', 'scripts/', 'test/'] },
  {
    folder: 'ingest/',
    except: ['ingest/testing/'],
    forbidden: ['workers/', 'grpc/', 'simulator/', 'scripts/', 'test/'],
  },
  { folder: 'ingest/decode/', forbidden: ['db/'], forbiddenPackages: [...ioModules, '@neondatabase/serverless'] },
  { folder: 'grpc/', forbidden: ['workers/', 'simulator/', 'scripts/', 'test/'] },
  {
    folder: 'simulator/',
    except: ['simulator/testing/'],
    forbidden: ['workers/', 'grpc/', 'db/', 'scripts/', 'test/'],
  },
];

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.posix.join(folder, file.split(path.sep).join('/')));
}

/** Every module specifier a file imports or re-exports, statically or with `import()`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/gm)) {
    found.push(match[1] as string);
  }
  return found;
}

/** The breaches of `rule` in the repository, as `file -> import` lines. */
function breaches(rule: Rule): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(rule.folder)) {
    if (rule.except?.some((folder) => file.startsWith(folder))) continue;
    for (const specifier of specifiers(readFileSync(path.join(root, file), 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        if (rule.forbidden.some((folder) => target.startsWith(folder))) found.push(`${file} -> ${target}`);
      } else if (rule.forbiddenPackages?.includes(specifier)) {
        found.push(`${file} -> ${specifier}`);
      }
    }
  }
  return found;
}

describe('layers', () => {
  for (const rule of rules) {
    it(`${rule.folder} imports none of ${[...rule.forbidden, ...(rule.forbiddenPackages ?? [])].join(', ')}`, () => {
      expect(breaches(rule)).toEqual([]);
    });
  }

  it('finds an import that crosses a layer (the check itself works)', () => {
    expect(specifiers("import { x } from '../../workers/a.ts';\nexport { y } from './b.ts';")).toEqual([
      '../../workers/a.ts',
      './b.ts',
    ]);
    expect(breaches({ folder: 'db/', forbidden: ['db/'] }).length).toBeGreaterThan(0);
  });
});
