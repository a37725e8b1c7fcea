/**
 * Record stream files v1, v2, v5 and v6 → one `ParsedRecordFile`: the hashes that signatures and the chain are
 * checked against, and the (transaction, record) pairs in file order. Pure: bytes in, objects out.
 */
import { gunzipSync } from 'node:zlib';
import type protobuf from 'protobufjs';
import { hapi } from '../../proto/hapi.ts';
import { ByteReader, FormatError } from './byte-reader.ts';
import { HASH_LENGTH, sha384 } from './hash.ts';
import { decodePlain } from './plain-decoder.ts';

export interface SemanticVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

export interface SidecarMetadata {
  readonly id: number;
  readonly hash: Uint8Array;
  readonly types: readonly number[];
}

/** A transaction and its record as they appear in the file, still undecoded (blocks give messages). */
export interface RawItem {
  readonly transaction: Uint8Array | protobuf.Message;
  readonly record: Uint8Array | protobuf.Message;
  /**
   * A block stream's TransactionResult.congestion_pricing_multiplier (0 when unset); record streams have none, so
   * its presence marks an item built from a block.
   */
  readonly congestionPricingMultiplier?: bigint;
}

export interface ParsedRecordFile {
  readonly name: string;
  readonly version: number;
  readonly hapiVersion: SemanticVersion | undefined;
  /** v1/v2: the previous file hash in the header; v5/v6: the start running hash. */
  readonly previousHash: Uint8Array;
  /** What `record_file.hash` stores and the next file's previous hash must equal. */
  readonly hash: Uint8Array;
  /** The hash that node signatures sign. */
  readonly fileHash: Uint8Array;
  /** v5/v6: the second signed hash, over the file with its items cut out. */
  readonly metadataHash: Uint8Array | undefined;
  /** v6 only: the block number written by the nodes. */
  readonly blockNumber: bigint | undefined;
  readonly items: readonly RawItem[];
  readonly sidecars: readonly SidecarMetadata[];
  /** Size of the file as downloaded (compressed for .gz). */
  readonly size: number;
}

const HASH_OBJECT_CLASS_ID = BigInt.asIntN(64, 0xf422da83a251741en);
const RECORD_STREAM_OBJECT_CLASS_ID = BigInt.asIntN(64, 0xe370929ba5429d8bn);
const SHA384_DIGEST_TYPE = 0x58ff811b;

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The bytes of a stream file, gunzipped when gzip; a corrupt or truncated gzip is a FormatError. */
export function unzipped(downloaded: Uint8Array): Uint8Array {
  if (!isGzip(downloaded)) return downloaded;
  try {
    return new Uint8Array(gunzipSync(downloaded));
  } catch (error) {
    throw new FormatError(`unreadable gzip: ${(error as Error).message}`);
  }
}

export function parseRecordFile(name: string, downloaded: Uint8Array): ParsedRecordFile {
  const bytes = unzipped(downloaded);
  if (bytes.length < 4) throw new FormatError('file shorter than its version field');
  const version = new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0);
  const base = { name, size: downloaded.length };
  switch (version) {
    case 1:
    case 2:
      return { ...base, ...parseV2(bytes, version) };
    case 5:
      return { ...base, ...parseV5(bytes) };
    case 6:
      return { ...base, ...parseV6(bytes) };
    default:
      throw new FormatError(`unsupported record file version ${version}`);
  }
}

type Parsed = Omit<ParsedRecordFile, 'name' | 'size'>;

function parseV2(bytes: Uint8Array, version: number): Parsed {
  const reader = new ByteReader(bytes);
  reader.int32('version');
  const hapiMajor = reader.int32('hapi version');
  if (reader.byte('previous hash marker') !== 1) throw new FormatError('missing previous hash marker');
  const previousHash = reader.take(HASH_LENGTH, 'previous hash');
  const headerLength = reader.offset;
  const items: RawItem[] = [];
  while (reader.remaining > 0) {
    const marker = reader.byte('record marker');
    if (marker !== 2) throw new FormatError(`unexpected marker ${marker} at offset ${reader.offset - 1}`);
    const transaction = reader.lengthPrefixed('transaction');
    const record = reader.lengthPrefixed('record');
    items.push({ transaction, record });
  }
  // v1 signs the whole file; v2 signs header ‖ SHA-384(body).
  const fileHash =
    version === 1 ? sha384(bytes) : sha384(bytes.subarray(0, headerLength), sha384(bytes.subarray(headerLength)));
  return {
    version,
    hapiVersion: { major: hapiMajor, minor: 0, patch: 0 },
    previousHash,
    hash: fileHash,
    fileHash,
    metadataHash: undefined,
    blockNumber: undefined,
    items,
    sidecars: [],
  };
}

function readHashObject(reader: ByteReader, what: string): Uint8Array {
  if (reader.int64(`${what} class id`) !== HASH_OBJECT_CLASS_ID) throw new FormatError(`${what}: not a hash object`);
  reader.int32(`${what} class version`);
  if (reader.int32(`${what} digest type`) !== SHA384_DIGEST_TYPE) throw new FormatError(`${what}: not SHA-384`);
  const length = reader.int32(`${what} length`);
  if (length !== HASH_LENGTH) throw new FormatError(`${what}: hash length ${length}`);
  return reader.take(HASH_LENGTH, what);
}

function parseV5(bytes: Uint8Array): Parsed {
  const reader = new ByteReader(bytes);
  reader.int32('version');
  const hapiVersion = {
    major: reader.int32('hapi major'),
    minor: reader.int32('hapi minor'),
    patch: reader.int32('hapi patch'),
  };
  reader.int32('object stream version');
  const headerEnd = reader.offset;
  const startObject = reader.offset;
  const previousHash = readHashObject(reader, 'start running hash');
  const startObjectBytes = bytes.subarray(startObject, reader.offset);
  const items: RawItem[] = [];
  while (reader.peekInt64() === RECORD_STREAM_OBJECT_CLASS_ID) {
    reader.int64('class id');
    reader.int32('class version');
    const record = reader.lengthPrefixed('record');
    const transaction = reader.lengthPrefixed('transaction');
    items.push({ transaction, record });
  }
  const endObject = reader.offset;
  const hash = readHashObject(reader, 'end running hash');
  const endObjectBytes = bytes.subarray(endObject, reader.offset);
  if (reader.remaining !== 0) throw new FormatError('bytes after the end running hash');
  return {
    version: 5,
    hapiVersion,
    previousHash,
    hash,
    fileHash: sha384(bytes),
    metadataHash: sha384(bytes.subarray(0, headerEnd), startObjectBytes, endObjectBytes),
    blockNumber: undefined,
    items,
    sidecars: [],
  };
}

interface V6File {
  hapi_proto_version?: { major?: number; minor?: number; patch?: number };
  start_object_running_hash?: { algorithm?: number; hash?: Uint8Array };
  end_object_running_hash?: { algorithm?: number; hash?: Uint8Array };
  /** Left as bytes by the decoder: each item is decoded once, when its rows are derived. */
  record_stream_items: { transaction?: Uint8Array; record?: Uint8Array }[];
  block_number?: bigint;
  sidecars: { id?: number; hash?: { hash?: Uint8Array }; types: number[] }[];
}

function parseV6(bytes: Uint8Array): Parsed {
  const file = decodePlain(hapi().RecordStreamFile, bytes.subarray(4)) as unknown as V6File;
  const start = file.start_object_running_hash;
  const end = file.end_object_running_hash;
  if (!start?.hash || start.hash.length !== HASH_LENGTH || start.algorithm !== 1) {
    throw new FormatError('start running hash missing or not SHA-384');
  }
  if (!end?.hash || end.hash.length !== HASH_LENGTH || end.algorithm !== 1) {
    throw new FormatError('end running hash missing or not SHA-384');
  }
  const v = file.hapi_proto_version ?? {};
  const hapiVersion = { major: v.major ?? 0, minor: v.minor ?? 0, patch: v.patch ?? 0 };
  const blockNumber = file.block_number ?? 0n;
  const metadata = new DataView(new ArrayBuffer(16 + 96 + 8));
  metadata.setInt32(0, 6);
  metadata.setInt32(4, hapiVersion.major);
  metadata.setInt32(8, hapiVersion.minor);
  metadata.setInt32(12, hapiVersion.patch);
  const metadataBytes = new Uint8Array(metadata.buffer);
  metadataBytes.set(start.hash, 16);
  metadataBytes.set(end.hash, 16 + HASH_LENGTH);
  metadata.setBigInt64(16 + 96, blockNumber);
  const items = file.record_stream_items.map((item, i) => {
    if (!item.transaction || !item.record) throw new FormatError(`item ${i} lacks its transaction or record`);
    return { transaction: item.transaction, record: item.record };
  });
  return {
    version: 6,
    hapiVersion,
    previousHash: start.hash,
    hash: end.hash,
    fileHash: sha384(bytes),
    metadataHash: sha384(metadataBytes),
    blockNumber,
    items,
    sidecars: file.sidecars.map((s) => ({ id: s.id ?? 0, hash: s.hash?.hash ?? new Uint8Array(), types: s.types })),
  };
}
