/**
 * Writes one record file period for every node: the same data file and sidecar in each node's folder (hard
 * links where the file system allows, since the bytes are identical) and each node's own signature file.
 * Data and sidecars land before signatures, each through a rename, so a reader that lists signature files
 * never finds one whose data is missing or half written.
 */
import { linkSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HASH_LENGTH } from '../hash.ts';
import type { SimItem } from '../network/network.ts';
import { recordDirectory, recordFileName, sidecarFileName, signatureFileName } from './layout.ts';
import type { SimNode } from './node-keys.ts';
import { buildRecordFile } from './record-file.ts';
import { buildSignatureFile } from './signature-file.ts';

export interface WrittenRecordFile {
  readonly name: string;
  readonly blockNumber: bigint;
  readonly count: number;
  readonly hash: Uint8Array;
  readonly fileHash: Uint8Array;
  readonly sizeBytes: number;
}

export function writeAtomically(file: string, bytes: Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}

export function placeCopy(source: string, target: string, bytes: Uint8Array): void {
  mkdirSync(path.dirname(target), { recursive: true });
  try {
    linkSync(source, target);
  } catch {
    writeAtomically(target, bytes);
  }
}

export class RecordStreamWriter {
  private readonly out: string;
  private readonly nodes: readonly SimNode[];
  /** The end running hash of the last file written: the next file's start. */
  runningHash: Uint8Array;

  constructor(out: string, nodes: readonly SimNode[], startRunningHash: Uint8Array = new Uint8Array(HASH_LENGTH)) {
    this.out = out;
    this.nodes = nodes;
    this.runningHash = startRunningHash;
  }

  /** Writes the file for `items`, named after `startNs` (the first item's consensus time). */
  write(items: readonly SimItem[], startNs: bigint, blockNumber: bigint): WrittenRecordFile {
    const file = buildRecordFile(items, this.runningHash, blockNumber);
    const name = recordFileName(startNs);
    const [first, ...others] = this.nodes.map((node) => recordDirectory(this.out, node.accountNum));
    if (!first) throw new Error('no nodes');
    if (file.sidecar) {
      const sidecar = path.join(first, sidecarFileName(startNs, 1));
      writeAtomically(sidecar, file.sidecar);
      for (const dir of others) placeCopy(sidecar, path.join(dir, sidecarFileName(startNs, 1)), file.sidecar);
    }
    const data = path.join(first, name);
    writeAtomically(data, file.data);
    for (const dir of others) placeCopy(data, path.join(dir, name), file.data);
    this.nodes.forEach((node, i) => {
      const dir = i === 0 ? first : (others[i - 1] as string);
      writeAtomically(
        path.join(dir, signatureFileName(startNs)),
        buildSignatureFile(node, file.fileHash, file.metadataHash),
      );
    });
    this.runningHash = file.endRunningHash;
    return {
      name,
      blockNumber,
      count: items.length,
      hash: file.endRunningHash,
      fileHash: file.fileHash,
      sizeBytes: file.data.length,
    };
  }
}
