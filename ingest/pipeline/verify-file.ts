/**
 * Fetches one pending record file and proves it: parse every node's signature file, find the hash that
 * consensus signed, download the data file from a node that signed it (the next one when a copy does not
 * match), check its hashes and its link to the previous file, then fetch and check its sidecars.
 * Any failure is a RejectedFileError naming the file and the reason; nothing is written for it.
 */
import { FormatError } from '../decode/byte-reader.ts';
import { bytesEqual, toHex } from '../decode/hash.ts';
import { type ParsedRecordFile, parseRecordFile } from '../decode/record-file.ts';
import { type ParsedSidecarFile, parseSidecarFile } from '../decode/sidecar-file.ts';
import { type ParsedSignatureFile, parseSignatureFile } from '../decode/signature-file.ts';
import { sidecarName } from '../decode/stream-file-name.ts';
import type { NodeFolder, PendingFile, RecordStreamSource } from '../sources/record-stream-source.ts';
import { agreedHashes, type ConsensusOptions, checkDataFile, type NodeSignature } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { NodeKeys } from '../verify/node-keys.ts';

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
}

export async function verifyFile(
  source: RecordStreamSource,
  pending: PendingFile,
  keys: NodeKeys,
  previousHash: Uint8Array | undefined,
  consensus?: ConsensusOptions,
): Promise<VerifiedFile> {
  const name = pending.name;
  const signatures: (NodeSignature & { folder: NodeFolder })[] = [];
  await Promise.all(
    pending.signatures.map(async ({ folder, key }) => {
      const bytes = await source.store.get(key);
      if (!bytes) return;
      let signature: ParsedSignatureFile;
      try {
        signature = parseSignatureFile(bytes);
      } catch {
        return; // an unreadable signature counts as no signature from that node
      }
      signatures.push({ node: folder.node, signature, folder });
    }),
  );
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
    const sidecars = await fetchSidecars(source, folder, parsed);
    return { parsed, sidecars, folder };
  }
  throw new RejectedFileError(name, lastProblem);
}

async function fetchSidecars(
  source: RecordStreamSource,
  folder: NodeFolder,
  parsed: ParsedRecordFile,
): Promise<VerifiedSidecar[]> {
  const out: VerifiedSidecar[] = [];
  for (const metadata of parsed.sidecars) {
    const name = sidecarName(parsed.name, metadata.id);
    const bytes = await source.store.get(source.sidecarKey(folder, name));
    if (!bytes) throw new RejectedFileError(parsed.name, `sidecar ${name} is missing`);
    let file: ParsedSidecarFile;
    try {
      file = parseSidecarFile(bytes);
    } catch (error) {
      if (error instanceof FormatError) throw new RejectedFileError(parsed.name, `sidecar ${name}: ${error.message}`);
      throw error;
    }
    if (!bytesEqual(file.hash, metadata.hash)) {
      throw new RejectedFileError(
        parsed.name,
        `sidecar ${name} hash ${toHex(file.hash)} does not match ${toHex(metadata.hash)}`,
      );
    }
    out.push({ name, id: metadata.id, types: metadata.types, file });
  }
  return out;
}
