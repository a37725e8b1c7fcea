/**
 * Which hash the network agreed on: every node signature is checked against that node's key (file hash and,
 * for v5/v6, metadata hash), verified signatures are grouped by the file hash they sign, and a group reaches
 * consensus when its nodes' weight is at least ⌈total × ratio⌉ (ratio 1/3 by default; each node weighs 1 and
 * the total is the node count until the network publishes stakes). The data file must then hash to the agreed
 * values and extend the chain.
 */
import { verify } from 'node:crypto';
import { bytesEqual, isAllZero, toHex } from '../decode/hash.ts';
import type { ParsedSignatureFile } from '../decode/signature-file.ts';
import { RejectedFileError } from './errors.ts';
import type { NodeKeys } from './node-keys.ts';

/** One node's signature file for a data file; `node` is the node account (`0.0.3`) or node id the folder names. */
export interface NodeSignature {
  readonly node: { readonly accountName?: string; readonly nodeId?: bigint };
  readonly signature: ParsedSignatureFile;
}

export interface ConsensusOptions {
  /** Fraction of weight that must agree; 0 accepts any single verified signature. */
  readonly ratio: number;
}

export interface AgreedHashes {
  readonly fileHash: Uint8Array;
  readonly metadataHash: Uint8Array | undefined;
  /** Node account names whose signatures verified for the agreed hash. */
  readonly signers: readonly string[];
  /** Signature files that did not verify against their node's key: worth a warning, not a rejection. */
  readonly invalid: readonly SignatureProblem[];
}

/** A node's signature file that did not count, and why. */
export interface SignatureProblem {
  /** The node as its folder names it: account `0.0.3` or node id `3`. */
  readonly node: string;
  readonly reason: string;
}

export const nodeLabel = (node: NodeSignature['node']): string => node.accountName ?? String(node.nodeId);

function verifies(hash: Uint8Array, signature: Uint8Array, key: import('node:crypto').KeyObject): boolean {
  try {
    return verify('sha384', hash, key, signature);
  } catch {
    return false;
  }
}

/** The hashes that consensus signed for `fileName`, or a RejectedFileError saying why there are none. */
export function agreedHashes(
  fileName: string,
  signatures: readonly NodeSignature[],
  keys: NodeKeys,
  options: ConsensusOptions = { ratio: 1 / 3 },
): AgreedHashes {
  const groups = new Map<string, { sig: ParsedSignatureFile; weight: bigint; signers: string[] }>();
  const seen = new Set<bigint>();
  /** Nodes of the book that have a signature file here, valid or not. */
  const present = new Set<bigint>();
  const weightOf = (nodeId: bigint) => (keys.stakes ? (keys.stakes.get(nodeId) ?? 0n) : 1n);
  const invalid: SignatureProblem[] = [];
  let verified = 0;
  for (const { node, signature } of signatures) {
    const key = keys.nodes.find((k) =>
      node.nodeId !== undefined ? k.nodeId === node.nodeId : k.accountName === node.accountName,
    );
    // A node the book does not know yet (a newer node than the book) is no fault of its signature file.
    if (!key || seen.has(key.nodeId)) continue;
    present.add(key.nodeId);
    if (!verifies(signature.file.hash, signature.file.signature, key.publicKey)) {
      invalid.push({ node: nodeLabel(node), reason: 'the file hash signature does not verify with the node key' });
      continue;
    }
    if (signature.metadata && !verifies(signature.metadata.hash, signature.metadata.signature, key.publicKey)) {
      invalid.push({ node: nodeLabel(node), reason: 'the metadata hash signature does not verify with the node key' });
      continue;
    }
    seen.add(key.nodeId);
    verified++;
    const group = toHex(signature.file.hash);
    const entry = groups.get(group) ?? { sig: signature, weight: 0n, signers: [] };
    entry.weight += weightOf(key.nodeId);
    entry.signers.push(key.accountName);
    groups.set(group, entry);
  }
  const total = keys.stakes ? [...keys.stakes.values()].reduce((a, b) => a + b, 0n) : BigInt(keys.nodes.length);
  const needed = ceilFraction(total, options.ratio);
  const missing = keys.nodes.reduce((sum, k) => (present.has(k.nodeId) ? sum : sum + weightOf(k.nodeId)), 0n);
  let best: { sig: ParsedSignatureFile; weight: bigint; signers: string[] } | undefined;
  for (const group of groups.values()) if (!best || group.weight > best.weight) best = group;
  // The signature files still missing could make up the weight: the file may pass once they arrive.
  const pending = missing > 0n && (best?.weight ?? 0n) + missing >= needed;
  if (verified === 0) {
    throw new RejectedFileError(
      fileName,
      `no valid node signature among ${signatures.length} signature files`,
      pending,
    );
  }
  if (!best || (options.ratio > 0 && best.weight < needed)) {
    throw new RejectedFileError(
      fileName,
      `consensus not reached: ${best?.weight ?? 0n} of ${total} weight signed the same hash, ${needed} needed`,
      pending,
    );
  }
  return { fileHash: best.sig.file.hash, metadataHash: best.sig.metadata?.hash, signers: best.signers, invalid };
}

/** ⌈total × ratio⌉ in integers (ratios are small decimals such as 1/3). */
function ceilFraction(total: bigint, ratio: number): bigint {
  const scale = 1_000_000_000n;
  const scaled = BigInt(Math.round(ratio * Number(scale)));
  const product = total * scaled;
  return product % scale === 0n ? product / scale : product / scale + 1n;
}

/** Checks a parsed data file against the agreed hashes and the previous file's hash. */
export function checkDataFile(
  fileName: string,
  file: { fileHash: Uint8Array; metadataHash: Uint8Array | undefined; previousHash: Uint8Array },
  agreed: AgreedHashes,
  expectedPreviousHash: Uint8Array | undefined,
): void {
  if (!bytesEqual(file.fileHash, agreed.fileHash)) {
    throw new RejectedFileError(
      fileName,
      `file hash ${toHex(file.fileHash)} does not match the signed hash ${toHex(agreed.fileHash)}`,
    );
  }
  if (agreed.metadataHash && (!file.metadataHash || !bytesEqual(file.metadataHash, agreed.metadataHash))) {
    throw new RejectedFileError(fileName, 'metadata hash does not match the signed metadata hash');
  }
  if (
    expectedPreviousHash &&
    !isAllZero(expectedPreviousHash) &&
    !bytesEqual(file.previousHash, expectedPreviousHash)
  ) {
    throw new RejectedFileError(
      fileName,
      `previous hash ${toHex(file.previousHash)} does not match the last ingested file's hash ${toHex(expectedPreviousHash)}`,
    );
  }
}
