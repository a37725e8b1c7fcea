/**
 * The proof of a wrapped record block (ingest.md §3.5): the nodes' RSA signatures over the file hash of the
 * record file re-serialized in the proof's version. Each signature is checked with its node's key from the
 * address book and the same consensus rule as signature files applies (1/3 of the weight by default); there
 * is no metadata hash. The hash that consensus signed must be the one recomputed from the block's contents.
 */
import type { WrappedRecordFile } from '../decode/block-reader.ts';
import { toHex } from '../decode/hash.ts';
import { agreedHashes, type ConsensusOptions, type NodeSignature } from './consensus.ts';
import { RejectedFileError } from './errors.ts';
import type { NodeKeys } from './node-keys.ts';

/** Throws a RejectedFileError naming `blockName` when the proof does not carry consensus for `fileHash`. */
export function verifyWrappedProof(
  blockName: string,
  blockNumber: bigint,
  wrapped: WrappedRecordFile,
  fileHash: Uint8Array,
  keys: NodeKeys,
  options?: ConsensusOptions,
): readonly string[] {
  if (wrapped.signatures.length === 0)
    throw new RejectedFileError(blockName, `block ${blockNumber} proof has no record file signature`);
  // Every signature is checked against the recomputed hash: a node that signed anything else does not verify.
  const signatures: NodeSignature[] = wrapped.signatures.map((s) => ({
    node: { nodeId: s.nodeId },
    signature: { version: wrapped.version, file: { hash: fileHash, signature: s.signature }, metadata: undefined },
  }));
  try {
    return agreedHashes(blockName, signatures, keys, options).signers;
  } catch (error) {
    if (!(error instanceof RejectedFileError)) throw error;
    throw new RejectedFileError(
      blockName,
      `block ${blockNumber} proof signatures do not verify the record file hash ${toHex(fileHash)}: ${error.reason}`,
    );
  }
}
