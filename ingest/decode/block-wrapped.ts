/**
 * Wrapped record blocks (ingest.md §3.5): a historical record file published as a block. The file is
 * re-serialized into the layout its proof names (v2, v5 or v6) from the exact bytes of its items, so the file
 * hash that the nodes signed can be recomputed, and then read by the record file parser like a downloaded file.
 * Amendments replace the item with the same consensus time or insert earlier ones; they change what is ingested
 * but not the file hash. Sidecars come inside the item and must match the hashes the record file lists.
 */
import { hapi } from '../../proto/hapi.ts';
import type { WrappedRecordFile } from './block-reader.ts';
import { fieldBytes } from './block-wire.ts';
import { FormatError } from './byte-reader.ts';
import { bytesEqual, HASH_LENGTH, toHex } from './hash.ts';
import { timestampNanos } from './ids.ts';
import { decodePlain } from './plain-decoder.ts';
import { type ParsedRecordFile, parseRecordFile, type RawItem } from './record-file.ts';
import { type ParsedSidecarFile, parseSidecarFile } from './sidecar-file.ts';
import { sidecarName } from './stream-file-name.ts';

const HASH_OBJECT_CLASS_ID = 0xf422da83a251741en;
const RECORD_STREAM_OBJECT_CLASS_ID = 0xe370929ba5429d8bn;
const SHA384_DIGEST_TYPE = 0x58ff811b;

export interface UnwrappedRecordFile {
  readonly parsed: ParsedRecordFile;
  /** `record_file.index`: the block number the record stream file carries. */
  readonly index: bigint;
  readonly sidecars: readonly { name: string; id: number; types: readonly number[]; file: ParsedSidecarFile }[];
}

interface StreamFile {
  hapi_proto_version?: { major?: number; minor?: number; patch?: number };
  start_object_running_hash?: { hash?: Uint8Array };
  end_object_running_hash?: { hash?: Uint8Array };
  block_number?: { toString(): string };
  sidecars: { id?: number; hash?: { hash?: Uint8Array }; types: number[] }[];
}

/** `2019-09-13T21_53_51.396440Z.rcd`: the record file name for its creation time, as Java's Instant prints it. */
export function recordFileNameOf(creationTime: bigint): string {
  const seconds = creationTime / 1_000_000_000n;
  const nanos = Number(creationTime % 1_000_000_000n);
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replaceAll(':', '_');
  let fraction = '';
  if (nanos !== 0) {
    const digits = String(nanos).padStart(9, '0');
    fraction = `.${nanos % 1_000_000 === 0 ? digits.slice(0, 3) : nanos % 1000 === 0 ? digits.slice(0, 6) : digits}`;
  }
  return `${base}${fraction}Z.rcd`;
}

class Out {
  private readonly parts: Uint8Array[] = [];
  int32(value: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, value);
    this.parts.push(b);
  }
  int64(value: bigint): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, value);
    this.parts.push(b);
  }
  byte(value: number): void {
    this.parts.push(new Uint8Array([value]));
  }
  bytes(value: Uint8Array): void {
    this.parts.push(value);
  }
  lengthPrefixed(value: Uint8Array): void {
    this.int32(value.length);
    this.parts.push(value);
  }
  hashObject(hash: Uint8Array): void {
    this.int64(HASH_OBJECT_CLASS_ID);
    this.int32(1);
    this.int32(SHA384_DIGEST_TYPE);
    this.lengthPrefixed(hash);
  }
  finish(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.parts));
  }
}

function rawItem(item: Uint8Array): { transaction: Uint8Array; record: Uint8Array } {
  return {
    transaction: fieldBytes(item, 1)[0] ?? new Uint8Array(),
    record: fieldBytes(item, 2)[0] ?? new Uint8Array(),
  };
}

function hashOf(object: { hash?: Uint8Array } | undefined, what: string): Uint8Array {
  if (!object?.hash || object.hash.length !== HASH_LENGTH) throw new FormatError(`wrapped record file: no ${what}`);
  return object.hash;
}

/** The record file bytes of format `version`, built from the items as the nodes wrote them. */
function reserialize(contents: Uint8Array, file: StreamFile, version: number): Uint8Array {
  const items = fieldBytes(contents, 3).map(rawItem);
  const out = new Out();
  out.int32(version);
  const v = file.hapi_proto_version ?? {};
  switch (version) {
    case 2:
      out.int32(v.minor ?? 0);
      out.byte(1);
      out.bytes(hashOf(file.start_object_running_hash, 'previous file hash'));
      for (const item of items) {
        out.byte(2);
        out.lengthPrefixed(item.transaction);
        out.lengthPrefixed(item.record);
      }
      return out.finish();
    case 5:
      out.int32(v.major ?? 0);
      out.int32(v.minor ?? 0);
      out.int32(v.patch ?? 0);
      out.int32(1);
      out.hashObject(hashOf(file.start_object_running_hash, 'start running hash'));
      for (const item of items) {
        out.int64(RECORD_STREAM_OBJECT_CLASS_ID);
        out.int32(1);
        out.lengthPrefixed(item.record);
        out.lengthPrefixed(item.transaction);
      }
      out.hashObject(hashOf(file.end_object_running_hash, 'end running hash'));
      return out.finish();
    case 6:
      out.bytes(contents);
      return out.finish();
    default:
      throw new FormatError(`wrapped record file: unsupported record file version ${version}`);
  }
}

/** The consensus time of an item's record; bytes that are no record reject the block. */
function consensusOf(item: RawItem): bigint {
  try {
    return timestampNanos(decodePlain(hapi().TransactionRecord, item.record as Uint8Array).consensusTimestamp);
  } catch (error) {
    throw new FormatError(`wrapped record file: unreadable item record: ${(error as Error).message}`);
  }
}

/**
 * The items to ingest: the file's, with amendments replacing equal timestamps and inserted before later ones.
 * Amendments are not covered by the file hash, so their order is not trusted: they are merged in time order, and
 * two of one timestamp reject the block (either would do, and each item must be written once).
 */
function amended(items: readonly RawItem[], amendments: readonly Uint8Array[]): RawItem[] {
  if (amendments.length === 0) return [...items];
  const extra = amendments
    .map((bytes) => {
      const item = rawItem(bytes);
      return { item, at: consensusOf(item) };
    })
    .sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
  for (let i = 1; i < extra.length; i++) {
    if (extra[i]?.at === extra[i - 1]?.at) {
      throw new FormatError(`wrapped record file: two amendments at consensus time ${extra[i]?.at}`);
    }
  }
  const out: RawItem[] = [];
  let a = 0;
  for (const item of items) {
    const ts = consensusOf(item);
    let next = extra[a];
    while (next && next.at < ts) {
      out.push(next.item);
      next = extra[++a];
    }
    if (next?.at === ts) {
      out.push(next.item);
      a++;
    } else out.push(item);
  }
  for (const rest of extra.slice(a)) out.push(rest.item);
  return out;
}

export function unwrapRecordFile(wrapped: WrappedRecordFile): UnwrappedRecordFile {
  let file: StreamFile;
  try {
    file = hapi().RecordStreamFile.decode(wrapped.recordFileContents) as unknown as StreamFile;
  } catch (error) {
    throw new FormatError(`wrapped record file: ${(error as Error).message}`);
  }
  const name = recordFileNameOf(wrapped.creationTime);
  const bytes = reserialize(wrapped.recordFileContents, file, wrapped.version);
  const read = parseRecordFile(name, bytes);
  const parsed: ParsedRecordFile = { ...read, items: amended(read.items, wrapped.amendments) };
  const sidecars: UnwrappedRecordFile['sidecars'][number][] = [];
  for (const metadata of parsed.sidecars) {
    const content = wrapped.sidecarFileContents[metadata.id - 1];
    const sidecar = sidecarName(name, metadata.id);
    if (!content) throw new FormatError(`wrapped record file: sidecar ${metadata.id} is missing`);
    const parsedSidecar = parseSidecarFile(content);
    if (!bytesEqual(parsedSidecar.hash, metadata.hash)) {
      throw new FormatError(
        `sidecar ${sidecar} hash ${toHex(parsedSidecar.hash)} does not match ${toHex(metadata.hash)}`,
      );
    }
    sidecars.push({ name: sidecar, id: metadata.id, types: metadata.types, file: parsedSidecar });
  }
  return { parsed, index: BigInt(file.block_number?.toString() ?? '0'), sidecars };
}
