/**
 * Node signature files (`*.rcd_sig`): v2 layout (first byte ≤ 4), v5 (first byte 5) and v6 (byte 6 then a
 * protobuf SignatureFile). Each carries the hash the node signed and its RSA signature over those 48 bytes.
 */
import { hapi } from '../../proto/hapi.ts';
import { ByteReader, FormatError } from './byte-reader.ts';
import { HASH_LENGTH } from './hash.ts';
import { unzipped } from './record-file.ts';

export interface SignedHash {
  readonly hash: Uint8Array;
  readonly signature: Uint8Array;
}

export interface ParsedSignatureFile {
  readonly version: number;
  readonly file: SignedHash;
  /** v5/v6 only. */
  readonly metadata: SignedHash | undefined;
}

const HASH_OBJECT_CLASS_ID = BigInt.asIntN(64, 0xf422da83a251741en);
const SIGNATURE_OBJECT_CLASS_ID = 0x13dc4b399b245c69n;
const MAX_SIGNATURE_LENGTH = 384;

export function parseSignatureFile(downloaded: Uint8Array): ParsedSignatureFile {
  const bytes = unzipped(downloaded);
  const first = bytes[0];
  if (first === undefined) throw new FormatError('empty signature file');
  if (first === 6) return parseV6(bytes);
  if (first === 5) return parseV5(bytes);
  if (first <= 4) return parseV2(bytes);
  throw new FormatError(`unsupported signature file version ${first}`);
}

function parseV2(bytes: Uint8Array): ParsedSignatureFile {
  const reader = new ByteReader(bytes);
  if (reader.byte('hash marker') !== 4) throw new FormatError('missing hash marker');
  const hash = reader.take(HASH_LENGTH, 'file hash');
  if (reader.byte('signature marker') !== 3) throw new FormatError('missing signature marker');
  const signature = reader.lengthPrefixed('signature', MAX_SIGNATURE_LENGTH);
  if (reader.remaining !== 0) throw new FormatError('bytes after the signature');
  return { version: 2, file: { hash, signature }, metadata: undefined };
}

function readHashObject(reader: ByteReader, what: string): Uint8Array {
  if (reader.int64(`${what} class id`) !== HASH_OBJECT_CLASS_ID) throw new FormatError(`${what}: not a hash object`);
  reader.int32(`${what} class version`);
  reader.int32(`${what} digest type`);
  const length = reader.int32(`${what} length`);
  if (length !== HASH_LENGTH) throw new FormatError(`${what}: hash length ${length}`);
  return reader.take(HASH_LENGTH, what);
}

function readSignatureObject(reader: ByteReader, what: string): Uint8Array {
  if (reader.int64(`${what} class id`) !== SIGNATURE_OBJECT_CLASS_ID) throw new FormatError(`${what}: not a signature`);
  reader.int32(`${what} class version`);
  const type = reader.int32(`${what} type`);
  if (type !== 1) throw new FormatError(`${what}: signature type ${type} is not SHA384withRSA`);
  const length = reader.int32(`${what} length`);
  if (length <= 0 || length > MAX_SIGNATURE_LENGTH) throw new FormatError(`${what}: length ${length}`);
  const checksum = reader.int32(`${what} checksum`);
  if (checksum !== 101 - length) throw new FormatError(`${what}: checksum ${checksum} does not match length`);
  return reader.take(length, what);
}

function parseV5(bytes: Uint8Array): ParsedSignatureFile {
  const reader = new ByteReader(bytes);
  reader.byte('version');
  reader.int32('object stream signature version');
  const fileHash = readHashObject(reader, 'file hash');
  const fileSignature = readSignatureObject(reader, 'file signature');
  const metadataHash = readHashObject(reader, 'metadata hash');
  const metadataSignature = readSignatureObject(reader, 'metadata signature');
  if (reader.remaining !== 0) throw new FormatError('bytes after the metadata signature');
  return {
    version: 5,
    file: { hash: fileHash, signature: fileSignature },
    metadata: { hash: metadataHash, signature: metadataSignature },
  };
}

interface SignatureObject {
  type?: number;
  signature?: Uint8Array;
  hash_object?: { hash?: Uint8Array };
}

function signedHash(object: SignatureObject | undefined, what: string): SignedHash {
  const hash = object?.hash_object?.hash;
  const signature = object?.signature;
  if (!hash || hash.length !== HASH_LENGTH || !signature || signature.length === 0) {
    throw new FormatError(`${what} missing`);
  }
  if (object.type !== 1) throw new FormatError(`${what}: signature type is not SHA_384_WITH_RSA`);
  return { hash, signature };
}

function parseV6(bytes: Uint8Array): ParsedSignatureFile {
  const file = hapi().SignatureFile.decode(bytes.subarray(1)) as unknown as {
    file_signature?: SignatureObject;
    metadata_signature?: SignatureObject;
  };
  return {
    version: 6,
    file: signedHash(file.file_signature, 'file signature'),
    metadata: signedHash(file.metadata_signature, 'metadata signature'),
  };
}
