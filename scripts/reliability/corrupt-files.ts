/**
 * Each kind of bad file the ingest must refuse, made from a copy of a good simulated stream: it must stop at that
 * file, name it, and write none of its rows (every file before it is written).
 */
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import type { CheckResult } from './checks-ingest.ts';
import type { Cluster } from './cluster.ts';
import { spawnIngest } from './ingest-run.ts';

const RECORDS = 'recordstreams';

interface Corruption {
  readonly kind: string;
  /** Spoils file `name` (`…Z.rcd.gz`) in the stream copy `dir`; returns the file the ingest must name. */
  spoil(dir: string, name: string, next: string): Promise<string>;
}

async function nodeDirs(dir: string): Promise<string[]> {
  return (await readdir(path.join(dir, RECORDS))).map((node) => path.join(dir, RECORDS, node));
}

async function editEach(files: string[], edit: (bytes: Buffer) => Buffer): Promise<void> {
  for (const file of files) await writeFile(file, edit(await readFile(file)));
}

const flipMiddle = (bytes: Buffer) => {
  const at = Math.floor(bytes.length / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  return bytes;
};
const signatureOf = (name: string) => name.replace(/\.rcd\.gz$/, '.rcd_sig');

const CORRUPTIONS: readonly Corruption[] = [
  {
    kind: 'a flipped bit in the data file',
    async spoil(dir, name) {
      const files = (await nodeDirs(dir)).map((d) => path.join(d, name));
      await editEach(files, (bytes) => gzipSync(flipMiddle(gunzipSync(bytes))));
      return name;
    },
  },
  {
    kind: 'a truncated data file',
    async spoil(dir, name) {
      await editEach(
        (await nodeDirs(dir)).map((d) => path.join(d, name)),
        (bytes) => bytes.subarray(0, Math.floor(bytes.length / 2)),
      );
      return name;
    },
  },
  {
    kind: 'no signature file',
    async spoil(dir, name) {
      for (const d of await nodeDirs(dir)) await rm(path.join(d, signatureOf(name)));
      return name;
    },
  },
  {
    kind: 'a signature from one node of four',
    async spoil(dir, name) {
      for (const d of (await nodeDirs(dir)).slice(1)) await rm(path.join(d, signatureOf(name)));
      return name;
    },
  },
  {
    kind: 'signatures that do not verify',
    async spoil(dir, name) {
      await editEach(
        (await nodeDirs(dir)).map((d) => path.join(d, signatureOf(name))),
        (bytes) => {
          bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
          return bytes;
        },
      );
      return name;
    },
  },
  {
    kind: 'a file missing from the chain',
    async spoil(dir, name, next) {
      for (const d of await nodeDirs(dir)) {
        await rm(path.join(d, name));
        await rm(path.join(d, signatureOf(name)));
      }
      return next;
    },
  },
];

/** The files of the stream in order (names of node 0's record files). */
async function recordFileNames(dir: string): Promise<string[]> {
  const [first] = await nodeDirs(dir);
  return (await readdir(first as string)).filter((n) => n.endsWith('.rcd.gz')).sort();
}

/**
 * Runs every corruption on file `at` of a copy of `streams` (plus a bad sidecar on the first file that has one);
 * each must be refused by name with nothing of it written.
 */
export async function corruptFiles(cluster: Cluster, streams: string, work: string): Promise<CheckResult> {
  const names = await recordFileNames(streams);
  const at = Math.floor(names.length / 2);
  const sidecars = await readdir(path.join((await nodeDirs(streams))[0] as string, 'sidecar')).catch(() => []);
  const withSidecar = names.findIndex((n) => sidecars.some((s) => s.startsWith(n.replace(/\.rcd\.gz$/, '_'))));
  const cases: { corruption: Corruption; index: number }[] = CORRUPTIONS.map((corruption) => ({
    corruption,
    index: at,
  }));
  if (withSidecar >= 0) {
    cases.push({
      index: withSidecar,
      corruption: {
        kind: 'a sidecar that does not match its hash',
        async spoil(dir, name) {
          const prefix = name.replace(/\.rcd\.gz$/, '_');
          for (const d of await nodeDirs(dir)) {
            const own = (await readdir(path.join(d, 'sidecar'))).filter((s) => s.startsWith(prefix));
            await editEach(
              own.map((s) => path.join(d, 'sidecar', s)),
              (bytes) => gzipSync(flipMiddle(gunzipSync(bytes))),
            );
          }
          return name;
        },
      },
    });
  }
  const failures: string[] = [];
  for (const [i, { corruption, index }] of cases.entries()) {
    const dir = path.join(work, `corrupt-${i}`);
    await cp(streams, dir, { recursive: true });
    const expected = await corruption.spoil(dir, names[index] as string, names[index + 1] as string);
    const url = await cluster.createDatabase(`corrupt_${i}`);
    const run = spawnIngest(dir, url);
    const code = await run.exited;
    const rejected = run.lines.find((l) => l.msg === 'file rejected');
    // Every file before the spoiled one, and nothing after.
    const before = index;
    const written = await recordFilesWritten(url);
    const problem =
      code !== 1
        ? `exited with ${code}`
        : rejected?.file !== expected
          ? `named ${String(rejected?.file)}, not ${expected}`
          : written !== before
            ? `${written} record files written, ${before} expected`
            : undefined;
    console.log(`  ${corruption.kind}: ${problem ?? `refused (${String(rejected?.reason).slice(0, 100)})`}`);
    if (problem) failures.push(`${corruption.kind}: ${problem}`);
    await rm(dir, { recursive: true, force: true });
  }
  return {
    ok: failures.length === 0,
    line: `corrupt files: ${cases.length - failures.length} of ${cases.length} kinds refused by name with none of their rows written${failures.length ? ` (${failures.join('; ')})` : ''}`,
  };
}

async function recordFilesWritten(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from record_file');
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}
