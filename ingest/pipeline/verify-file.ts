/**
 * Fetches one pending record file and proves it: parse every node's signature file, find the hash that
 * consensus signed, download the data file from a node that signed it (the next one when a copy does not
 * match), check its hashes and its link to the previous file, then fetch and check its sidecars (from any node
 * that has a copy matching the hash the record file gives). Any failure is a RejectedFileError naming the file
 * (as listed: `….rcd.gz` where the data file is compressed) and the reason; nothing is written for it.
 */
import { FormatError } from '../decode/byte-reader.ts';
import { bytesEqual, toHex } from '../decode/hash.ts';
import { type ParsedRecordFile, parseRecordFile } from '../decode/record-file.ts';
import { type ParsedSidecarFile, parseSidecarFile } from '../decode/sidecar-file.ts';
import { sidecarName } from '../decode/stream-file-name.ts';
import type { NodeFolder, PendingFile, RecordStreamSource } from '../sources/record-stream-source.ts';
import { agreedHashes, type ConsensusOptions, checkDataFile, type SignatureProblem } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { NodeKeys } from '../verify/node-keys.ts';
import { readSignatureFiles } from './signature-files.ts';

export interface VerifiedSidecar {
  readonly name: string;
  readonly id: number;
  readonly types: readonly number[];
  readonly file: ParsedSidecarFile;
}

export interface VerifiedFile {
  readonly parsed: ParsedRecordFile;
  readonly sidecars: readonly VerifiedSidecar[];
  /** The node folder the data came from. */
  readonly folder: NodeFolder;
  /** Nodes whose signature file did not count (unreadable, or not verifying with the node's key). */
  readonly signatureProblems: readonly SignatureProblem[];
}

/** The name a pending file goes by in logs and rejections: its data file as listed, else its bare name. */
export function listedName(pending: PendingFile): string {
  const [folder, key] = pending.dataKeys.entries().next().value ?? [];
  return folder && key ? key.slice(folder.prefix.length) : pending.name;
}

export async function verifyFile(
  source: RecordStreamSource,
  pending: PendingFile,
  keys: NodeKeys,
  previousHash: Uint8Array | undefined,
  consensus?: ConsensusOptions,
): Promise<VerifiedFile> {
  const name = listedName(pending);
  const { signatures, unreadable } = await readSignatureFiles(source.store, pending.signatures);
  const agreed = agreedHashes(name, signatures, keys, consensus);
  const candidates = signatures.filter((s) => bytesEqual(s.signature.file.hash, agreed.fileHash)).map((s) => s.folder);
  let lastProblem = 'no node that signed it has the data file';
  for (const folder of candidates) {
    const key = pending.dataKeys.get(folder);
    if (!key) continue;
    const bytes = await source.store.get(key);
    if (!bytes) continue;
    let parsed: ParsedRecordFile;
    try {
      parsed = parseRecordFile(key.slice(folder.prefix.length), bytes);
    } catch (error) {
      lastProblem = `unreadable data file: ${(error as Error).message}`;
      continue;
    }
    if (!bytesEqual(parsed.fileHash, agreed.fileHash)) {
      lastProblem = `file hash ${toHex(parsed.fileHash)} does not match the signed hash ${toHex(agreed.fileHash)}`;
      continue;
    }
    checkDataFile(parsed.name, parsed, agreed, previousHash);
    // This node's sidecars first, then those of the other nodes that signed, then of any node.
    const others = pending.signatures.map((s) => s.folder);
    const folders = [...new Set([folder, ...candidates, ...others])];
    const sidecars = await fetchSidecars(source, folders, parsed);
    return { parsed, sidecars, folder, signatureProblems: [...unreadable, ...agreed.invalid] };
  }
  throw new RejectedFileError(name, lastProblem);
}

/** Each sidecar the record file lists, from the first of `folders` whose copy parses and has the listed hash. */
async function fetchSidecars(
  source: RecordStreamSource,
  folders: readonly NodeFolder[],
  parsed: ParsedRecordFile,
): Promise<VerifiedSidecar[]> {
  const out: VerifiedSidecar[] = [];
  for (const metadata of parsed.sidecars) {
    const name = sidecarName(parsed.name, metadata.id);
    let problem = `sidecar ${name} is missing on every node`;
    let found: ParsedSidecarFile | undefined;
    for (const folder of folders) {
      const bytes = await source.store.get(source.sidecarKey(folder, name));
      if (!bytes) continue;
      let file: ParsedSidecarFile;
      try {
        file = parseSidecarFile(bytes);
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
        problem = `sidecar ${name}: ${error.message}`;
        continue;
      }
      if (!bytesEqual(file.hash, metadata.hash)) {
        problem = `sidecar ${name} hash ${toHex(file.hash)} does not match ${toHex(metadata.hash)}`;
        continue;
      }
      found = file;
      break;
    }
    if (!found) throw new RejectedFileError(parsed.name, problem);
    out.push({ name, id: metadata.id, types: metadata.types, file: found });
  }
  return out;
}
