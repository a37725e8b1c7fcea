/**
 * Proves one pending balance file as the reference importer proves every stream file (`downloader/Downloader.java`):
 * each node's signature file is checked against that node's key, a third of the weight must sign one file hash,
 * and the data file, fetched from a node that signed that hash (the next one when a copy does not match), must hash
 * to it. Balance files are not chained, so there is no previous-hash check. Any failure is a RejectedFileError
 * naming the file and the reason.
 */

import { type ParsedBalanceFile, parseBalanceFile } from '../decode/balance-file.ts';
import { FormatError } from '../decode/byte-reader.ts';
import { bytesEqual, toHex } from '../decode/hash.ts';
import type { PendingBalanceFile } from '../sources/balance-stream-source.ts';
import type { NodeFolder } from '../sources/node-folders.ts';
import type { ObjectStore } from '../sources/object-store.ts';
import { agreedHashes, type ConsensusOptions, type SignatureProblem } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { NodeKeys } from '../verify/node-keys.ts';
import { readSignatureFiles } from './signature-files.ts';

export interface VerifiedBalanceFile {
  readonly parsed: ParsedBalanceFile;
  /** The node folder the data came from. */
  readonly folder: NodeFolder;
  /** Nodes whose signature file did not count (unreadable, or not verifying with the node's key). */
  readonly signatureProblems: readonly SignatureProblem[];
  /** When its download began (epoch milliseconds): the importer's `load_start`. */
  readonly loadStartMs: number;
}

export async function verifyBalanceFile(
  store: ObjectStore,
  pending: PendingBalanceFile,
  keys: NodeKeys,
  consensus?: ConsensusOptions,
): Promise<VerifiedBalanceFile> {
  const loadStartMs = Date.now();
  const { signatures, unreadable } = await readSignatureFiles(store, pending.signatures);
  const agreed = agreedHashes(pending.name, signatures, keys, consensus);
  let lastProblem = 'no node that signed it has the data file';
  for (const { folder } of signatures.filter((s) => bytesEqual(s.signature.file.hash, agreed.fileHash))) {
    const key = pending.dataKeys.get(folder);
    if (!key) continue;
    const bytes = await store.get(key);
    if (!bytes) continue;
    let parsed: ParsedBalanceFile;
    try {
      parsed = parseBalanceFile(key.slice(folder.prefix.length), bytes);
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      lastProblem = `unreadable data file: ${error.message}`;
      continue;
    }
    if (!bytesEqual(parsed.fileHash, agreed.fileHash)) {
      lastProblem = `file hash ${toHex(parsed.fileHash)} does not match the signed hash ${toHex(agreed.fileHash)}`;
      continue;
    }
    return { parsed, folder, signatureProblems: [...unreadable, ...agreed.invalid], loadStartMs };
  }
  throw new RejectedFileError(pending.name, lastProblem);
}
