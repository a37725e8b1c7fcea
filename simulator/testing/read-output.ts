/**
 * Reads a simulator output directory back with the ingest's own decoders and verifiers (record files,
 * signature files, sidecars, the address book, the 1/3 consensus rule and the hash chain), so tests prove
 * the files are accepted by the same rules the ingest applies. Throws on the first file that fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type protobuf from 'protobufjs';
import { parseAddressBook } from '../../ingest/decode/address-book.ts';
import { bytesEqual } from '../../ingest/decode/hash.ts';
import { type ParsedRecordFile, parseRecordFile } from '../../ingest/decode/record-file.ts';
import { parseSignatureFile } from '../../ingest/decode/signature-file.ts';
import { agreedHashes, checkDataFile } from '../../ingest/verify/consensus.ts';
import { nodeKeysOf } from '../../ingest/verify/node-keys.ts';
import { hapi } from '../../proto/hapi.ts';
import { sha384 } from '../hash.ts';
import { ADDRESS_BOOK_FILE } from '../write/layout.ts';

/** protobufjs plain objects: int64 as decimal strings, bytes as Uint8Array, only fields on the wire. */
// biome-ignore lint/suspicious/noExplicitAny: a test reader walks arbitrary decoded messages
export type Plain = Record<string, any>;

export interface DecodedItem {
  readonly transactionBytes: Uint8Array;
  readonly signedTransactionBytes: Uint8Array;
  readonly body: Plain;
  readonly record: Plain;
  readonly status: number;
}

export interface VerifiedFile {
  readonly name: string;
  readonly parsed: ParsedRecordFile;
  readonly items: readonly DecodedItem[];
  readonly sidecarRecords: readonly Plain[];
  readonly signers: readonly string[];
}

const PLAIN = { longs: String, enums: Number } as const;

function decodeItem(raw: ParsedRecordFile['items'][number]): DecodedItem {
  const types = hapi();
  // The ingest's parser leaves v6 items undecoded.
  const message = (value: Uint8Array | protobuf.Message, type: protobuf.Type) =>
    value instanceof Uint8Array ? type.decode(value) : value;
  const transaction = message(raw.transaction, types.Transaction) as protobuf.Message & {
    signedTransactionBytes: Uint8Array;
  };
  const signed = types.SignedTransaction.decode(transaction.signedTransactionBytes) as protobuf.Message & {
    bodyBytes: Uint8Array;
  };
  const record = types.TransactionRecord.toObject(message(raw.record, types.TransactionRecord), PLAIN);
  return {
    transactionBytes: types.Transaction.encode(transaction).finish(),
    signedTransactionBytes: transaction.signedTransactionBytes,
    body: types.TransactionBody.toObject(types.TransactionBody.decode(signed.bodyBytes), PLAIN),
    record,
    status: record.receipt?.status ?? 0,
  };
}

export function nodeFolders(out: string): string[] {
  return readdirSync(path.join(out, 'recordstreams')).sort();
}

export function readVerifiedOutput(out: string): VerifiedFile[] {
  const keys = nodeKeysOf(parseAddressBook(readFileSync(path.join(out, ADDRESS_BOOK_FILE))));
  const folders = nodeFolders(out);
  const first = path.join(out, 'recordstreams', folders[0] ?? '');
  const names = readdirSync(first)
    .filter((name) => name.endsWith('.rcd.gz'))
    .sort();
  const files: VerifiedFile[] = [];
  let previous: Uint8Array | undefined;
  for (const name of names) {
    const parsed = parseRecordFile(name, readFileSync(path.join(first, name)));
    const signatureName = name.replace(/\.rcd\.gz$/, '.rcd_sig');
    const signatures = folders.map((folder) => ({
      node: { accountName: folder.replace(/^record/, '') },
      signature: parseSignatureFile(readFileSync(path.join(out, 'recordstreams', folder, signatureName))),
    }));
    const agreed = agreedHashes(name, signatures, keys);
    checkDataFile(name, parsed, agreed, previous);
    previous = parsed.hash;
    const sidecarRecords: Plain[] = [];
    for (const metadata of parsed.sidecars) {
      const sidecarName = name.replace(/\.rcd\.gz$/, `_${String(metadata.id).padStart(2, '0')}.rcd.gz`);
      const bytes = gunzipSync(readFileSync(path.join(first, 'sidecar', sidecarName)));
      if (!bytesEqual(sha384(bytes), metadata.hash))
        throw new Error(`${sidecarName}: hash differs from the record file's`);
      const sidecar = hapi().SidecarFile.toObject(hapi().SidecarFile.decode(bytes), PLAIN);
      sidecarRecords.push(...(sidecar.sidecar_records ?? []));
    }
    const items = parsed.items.map(decodeItem);
    files.push({ name, parsed, items, sidecarRecords, signers: agreed.signers });
  }
  return files;
}
