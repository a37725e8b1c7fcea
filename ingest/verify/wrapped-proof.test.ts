import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockTypes } from '../../proto/block.ts';
import { parseAddressBook } from '../decode/address-book.ts';
import { decompressBlock, splitBlockItems, splitBlockPath } from '../decode/block-file.ts';
import { readBlock, type WrappedRecordFile } from '../decode/block-reader.ts';
import { unwrapRecordFile } from '../decode/block-wrapped.ts';
import { STREAMS } from '../testing/fixtures.ts';
import { RejectedFileError } from './errors.ts';
import { nodeKeysOf } from './node-keys.ts';
import { verifyWrappedProof } from './wrapped-proof.ts';

const mainnet = nodeKeysOf(
  parseAddressBook(new Uint8Array(readFileSync(path.join(STREAMS, 'bootstrap-addressbook/mainnet')))),
);

function wrappedBlock(n: bigint) {
  const key = splitBlockPath(n, '.blk.zstd');
  const bytes = new Uint8Array(readFileSync(path.join(STREAMS, 'data/wrbs', key)));
  const block = readBlock(key, splitBlockItems(decompressBlock(bytes)), bytes.length);
  if (!block.wrapped) throw new Error(`${key} is not a wrapped record block`);
  return { wrapped: block.wrapped, fileHash: unwrapRecordFile(block.wrapped).parsed.fileHash };
}

/** The reference verifier's input for block 20346052: a SignedRecordFileProof alone. */
function proofOf20346052(): WrappedRecordFile {
  const proof = new Uint8Array(readFileSync(path.join(STREAMS, 'data/signature/wrb/20346052.bin')));
  const type = blockTypes().BlockItem.root.lookupType('edge.block.SignedRecordFileProof');
  const signed = type.toObject(type.decode(proof), { longs: String }) as {
    version: number;
    record_file_signatures: { node_id?: string; signatures_bytes: Uint8Array }[];
  };
  return {
    creationTime: 0n,
    recordFileContents: new Uint8Array(),
    sidecarFileContents: [],
    amendments: [],
    version: signed.version,
    signatures: signed.record_file_signatures.map((s) => ({
      nodeId: BigInt(s.node_id ?? 0),
      signature: new Uint8Array(s.signatures_bytes),
    })),
  };
}
describe('wrapped record block proofs', () => {
  it('verifies the signers of block 0 (7 of 13) and of block 26591040 (6 of 13) with the mainnet bootstrap book', () => {
    const zero = wrappedBlock(0n);
    expect(verifyWrappedProof('000.blk', 0n, zero.wrapped, zero.fileHash, mainnet)).toHaveLength(7);
    const later = wrappedBlock(26591040n);
    expect(verifyWrappedProof('040.blk', 26591040n, later.wrapped, later.fileHash, mainnet)).toHaveLength(6);
  });

  it('rejects a proof when the recomputed file hash is not what the nodes signed', () => {
    const { wrapped, fileHash } = wrappedBlock(0n);
    const other = new Uint8Array(fileHash);
    other[0] = (other[0] ?? 0) ^ 1;
    expect(() => verifyWrappedProof('000.blk', 0n, wrapped, other, mainnet)).toThrow(
      /^rejected 000\.blk: block 0 proof signatures do not verify the record file hash 430f.*no valid node signature among 7/,
    );
  });

  it('reads the proof of block 20346052 (v6, nodes 0-3) and rejects it with keys that did not sign it', () => {
    const wrapped = proofOf20346052();
    expect(wrapped.version).toBe(6);
    expect(wrapped.signatures.map((s) => [s.nodeId, s.signature.length])).toEqual([
      [0n, 384],
      [1n, 384],
      [2n, 384],
      [3n, 384],
    ]);
    // The 2025 mainnet keys of nodes 0-3 are not those of the 2019 bootstrap book, so nothing verifies.
    const error = (() => {
      try {
        verifyWrappedProof('20346052.blk', 20346052n, wrapped, new Uint8Array(48), mainnet);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(RejectedFileError);
    expect((error as RejectedFileError).reason).toMatch(/^block 20346052 proof .*no valid node signature among 4/);
  });

  it('rejects a proof without signatures', () => {
    const { wrapped, fileHash } = wrappedBlock(0n);
    expect(() => verifyWrappedProof('000.blk', 0n, { ...wrapped, signatures: [] }, fileHash, mainnet)).toThrow(
      'rejected 000.blk: block 0 proof has no record file signature',
    );
  });
});
