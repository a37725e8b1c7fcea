/**
 * The signature files of a pending stream file (record or balance file), fetched from every node folder that lists
 * one and parsed, for `agreedHashes` to weigh.
 */
import { type ParsedSignatureFile, parseSignatureFile } from '../decode/signature-file.ts';
import type { NodeFolder } from '../sources/node-folders.ts';
import type { ObjectStore } from '../sources/object-store.ts';
import { type NodeSignature, nodeLabel, type SignatureProblem } from '../verify/consensus.ts';

export interface FolderSignature extends NodeSignature {
  readonly folder: NodeFolder;
}

/**
 * The signature files at `listed` that the store still has, parsed; an unreadable one counts as no signature from
 * that node, and is one of the `unreadable` problems to report.
 */
export async function readSignatureFiles(
  store: ObjectStore,
  listed: readonly { readonly folder: NodeFolder; readonly key: string }[],
): Promise<{ signatures: FolderSignature[]; unreadable: SignatureProblem[] }> {
  const signatures: FolderSignature[] = [];
  const unreadable: SignatureProblem[] = [];
  await Promise.all(
    listed.map(async ({ folder, key }) => {
      const bytes = await store.get(key);
      if (!bytes) return;
      let signature: ParsedSignatureFile;
      try {
        signature = parseSignatureFile(bytes);
      } catch (error) {
        unreadable.push({
          node: nodeLabel(folder.node),
          reason: `unreadable signature file: ${(error as Error).message}`,
        });
        return;
      }
      signatures.push({ node: folder.node, signature, folder });
    }),
  );
  return { signatures, unreadable };
}
