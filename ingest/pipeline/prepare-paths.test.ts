import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../../simulator/main.ts';
import { simulate } from '../../simulator/run.ts';
import { ADDRESS_BOOK_FILE } from '../../simulator/write/layout.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { parseRecordFile } from '../decode/record-file.ts';
import { parseSidecarFile } from '../decode/sidecar-file.ts';
import { sidecarName } from '../decode/stream-file-name.ts';
import { deriveRecordFile } from '../derive/record-file.ts';
import { columnNames } from '../sink/bulk-insert.ts';
import { BinaryText, type ColumnKind } from '../sink/copy-binary.ts';
import { copyField, unionColumns } from '../sink/copy-text.ts';
import { TableSchema } from '../sink/schema.ts';
import { DirStore } from '../sources/dir-store.ts';
import type { ObjectStore } from '../sources/object-store.ts';
import { rowCounts, tableContents } from '../testing/database-facts.ts';
import { ingestStore } from '../testing/fixtures.ts';
import { RejectedFileError } from '../verify/errors.ts';

let out: string;
let threaded: TestDatabase;
let inline: TestDatabase;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'ingest-paths-'));
  await simulate(parseOptions(['--out', out, '--files', '4', '--tps', '200', '--seed', 'paths']));
  [threaded, inline] = await Promise.all([createTestDatabase(), createTestDatabase()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([threaded?.drop(), inline?.drop()]);
  rmSync(out, { recursive: true, force: true });
});

/** Each line of COPY text as column → field text, whatever the column order or group. */
function fieldMaps(lines: string[], columns: readonly string[], union: readonly string[]): string[] {
  return lines.map((line) => {
    const fields = line.split('\t');
    const map: Record<string, string> = {};
    for (const column of union) map[column] = '\\N';
    columns.forEach((column, i) => {
      map[column] = fields[i] as string;
    });
    return JSON.stringify(map, [...union].sort());
  });
}

/** The fields of binary COPY rows (no header) as hex, `\\N` for NULL. */
function binaryLines(bytes: Buffer): string[] {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; ) {
    const fields: string[] = [];
    const count = bytes.readInt16BE(at);
    at += 2;
    for (let i = 0; i < count; i++) {
      const length = bytes.readInt32BE(at);
      at += 4;
      fields.push(length < 0 ? '\\N' : bytes.subarray(at, at + length).toString('hex'));
      at += Math.max(length, 0);
    }
    lines.push(fields.join('\t'));
  }
  return lines;
}

/** One value as binaryLines shows it. */
function binaryField(value: unknown, kind: ColumnKind): string {
  const text = new BinaryText();
  text.field(value, kind);
  const bytes = text.bytes();
  return bytes.readInt32BE(0) < 0 ? '\\N' : bytes.subarray(4).toString('hex');
}

describe('rows derived as COPY data', () => {
  it('hold exactly the fields of the rows derived as objects, in every table, binary where every column has a binary form', async () => {
    const schema = await TableSchema.load(threaded.sql);
    const columnKinds = schema.columnKinds();
    const folder = path.join(out, 'recordstreams', readdirSync(path.join(out, 'recordstreams')).sort()[0] as string);
    const names = readdirSync(folder).filter((n) => n.endsWith('.rcd.gz'));
    // the genesis file and four of traffic
    expect(names.length).toBe(5);
    for (const name of names) {
      const parsed = parseRecordFile(name, readFileSync(path.join(folder, name)));
      const sidecars = parsed.sidecars.map((m) => {
        const sidecar = sidecarName(name, m.id);
        const file = parseSidecarFile(readFileSync(path.join(folder, 'sidecar', sidecar)));
        return { name: sidecar, id: m.id, types: m.types, file };
      });
      const options = { index: 1n, loadStart: 0n, sidecars };
      const objects = deriveRecordFile(parsed, options).rows;
      const copyMode = deriveRecordFile(parsed, { ...options, columnKinds }).rows;
      const copies = copyMode.copies;
      if (!copies) throw new Error('no COPY text');
      expect(new Set([...copies.tables.keys(), ...copyMode.inserts.keys()])).toEqual(new Set(objects.inserts.keys()));
      // The tables read again after derivation stay objects.
      for (const table of copyMode.inserts.keys()) {
        const strip = (rows: readonly Record<string, unknown>[]) => rows.map(({ load_end, ...row }) => row);
        expect(strip(copyMode.rows(table)), table).toEqual(strip(objects.rows(table)));
      }
      for (const [table, groups] of copies.tables) {
        const rows = objects.rows(table);
        const union = unionColumns(groups);
        expect(new Set(union), table).toEqual(new Set(columnNames(rows)));
        const kinds = union.map((c) => columnKinds.get(`${table}.${c}`) ?? 'text');
        const binary = groups.every((g) => g.kinds);
        expect(binary || groups.every((g) => !g.kinds), table).toBe(true);
        const expected = rows.map((row) =>
          union
            .map((c, i) => {
              const kind = kinds[i] as ColumnKind;
              return binary ? binaryField(row[c], kind) : copyField(row[c], kind === 'json' || kind === 'jsonb');
            })
            .join('\t'),
        );
        const actual = groups.flatMap((g) =>
          fieldMaps(
            binary ? binaryLines(g.text.bytes()) : g.text.bytes().toString().split('\n').slice(0, -1),
            g.columns,
            union,
          ),
        );
        expect(actual.sort(), table).toEqual(fieldMaps(expected, union, union).sort());
      }
    }
  });
});

describe('files prepared in a worker thread', () => {
  it('write the same rows as files prepared on the writing thread', async () => {
    const book = new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE)));
    const [a, b] = await Promise.all([
      ingestStore(threaded.url, new DirStore(out), '', { bootstrapAddressBook: book }),
      ingestStore(inline.url, new DirStore(out), '', { bootstrapAddressBook: book, prepareThread: false }),
    ]);
    expect(a.files).toBe(5);
    expect([b.files, b.transactions]).toEqual([a.files, a.transactions]);
    const counts = await rowCounts(threaded.sql);
    expect(await rowCounts(inline.sql)).toEqual(counts);
    const tables = Object.keys(counts);
    expect(tables).toEqual(expect.arrayContaining(['transaction', 'crypto_transfer', 'entity', 'topic_message']));
    expect(await tableContents(inline.sql, tables)).toEqual(await tableContents(threaded.sql, tables));
  });

  it('fail the run with the error of a failed read, and reject a file that does not match its signatures', async () => {
    const book = new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE)));
    const db = await createTestDatabase();
    try {
      const dir = new DirStore(out);
      const failing: ObjectStore = {
        description: 'failing',
        list: (prefix, after, limit) => dir.list(prefix, after, limit),
        listFolders: (prefix) => dir.listFolders(prefix),
        get: (key) => (key.endsWith('.rcd.gz') ? Promise.reject(new Error(`cannot read ${key}`)) : dir.get(key)),
      };
      await expect(ingestStore(db.url, failing, '', { bootstrapAddressBook: book })).rejects.toThrow(
        /cannot read .*\.rcd\.gz/,
      );
      // Data files whose bytes differ from what was signed: rejected, with the file named.
      const corrupt: ObjectStore = {
        ...failing,
        get: async (key) => {
          const bytes = await dir.get(key);
          if (!bytes || !key.endsWith('.rcd.gz')) return bytes;
          const copy = new Uint8Array(bytes);
          copy[copy.length - 10] = (copy[copy.length - 10] as number) ^ 0xff;
          return copy;
        },
      };
      await expect(ingestStore(db.url, corrupt, '', { bootstrapAddressBook: book })).rejects.toBeInstanceOf(
        RejectedFileError,
      );
      expect(await rowCounts(db.sql)).not.toHaveProperty('transaction');
    } finally {
      await db.drop();
    }
  });
});
