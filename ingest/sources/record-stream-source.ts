/**
 * Record stream files in a bucket or directory: discovers the node folders (legacy account-id layout
 * `[recordstreams/]record<shard.realm.num>/`, or HIP-679 node-id layout `<network>/<shard>/<nodeId>/record/`),
 * lists the signature files after the last ingested file, and reads data, signature and sidecar files.
 */
import { baseName, dataNameOfSignature, isRecordSignatureName } from '../decode/stream-file-name.ts';
import { BalanceStreamSource } from './balance-stream-source.ts';
import { discoverNodeFolders, type NodeFolder, type StreamLayoutOptions } from './node-folders.ts';
import type { ObjectStore } from './object-store.ts';

export type { NodeFolder } from './node-folders.ts';

/**
 * One data file that at least one node signed, or that no node signed although a later one is signed, with where
 * each signature and data copy lives.
 */
export interface PendingFile {
  /** Data file name without compression suffix: `2022-07-13T08_46_11.304284003Z.rcd`. */
  readonly name: string;
  readonly signatures: readonly { readonly folder: NodeFolder; readonly key: string }[];
  /** Data file keys per folder, as listed (`.rcd` or `.rcd.gz`). */
  readonly dataKeys: ReadonlyMap<NodeFolder, string>;
}

export type RecordStreamSourceOptions = StreamLayoutOptions;

/** `X.rcd.gz` / `X.rcd` → `X`: the listing starts after `X_`, which skips X's own files ('_' > '.'). */
export function stemOf(name: string): string {
  return baseName(name).replace(/\.rcd(\.gz)?$/, '');
}

export class RecordStreamSource {
  readonly store: ObjectStore;
  private readonly options: RecordStreamSourceOptions;
  private folders: NodeFolder[] | undefined;

  constructor(store: ObjectStore, options: RecordStreamSourceOptions = {}) {
    this.store = store;
    this.options = options;
  }

  async nodeFolders(): Promise<NodeFolder[]> {
    if (this.folders && this.folders.length > 0) return this.folders;
    this.folders = await discoverNodeFolders(this.store, 'record', this.options);
    return this.folders;
  }

  /** The account balance files of the same bucket or directory, in the same layout. */
  balanceSource(): BalanceStreamSource {
    return new BalanceStreamSource(this.store, this.options);
  }

  /** Files signed after `lastName` (oldest first), from every node folder, at most `batch` names. */
  async nextFiles(lastName: string | undefined, batch: number): Promise<PendingFile[]> {
    const folders = await this.nodeFolders();
    const byName = new Map<
      string,
      { signatures: PendingFile['signatures'][number][]; dataKeys: Map<NodeFolder, string> }
    >();
    const listings = await Promise.all(
      folders.map(async (folder) => ({
        folder,
        keys: await this.store.list(folder.prefix, lastName ? `${folder.prefix}${stemOf(lastName)}_` : '', batch * 2),
      })),
    );
    for (const { folder, keys } of listings) {
      for (const key of keys) {
        const name = key.slice(folder.prefix.length);
        if (name.includes('/')) continue;
        const isSignature = isRecordSignatureName(name);
        const dataName = isSignature ? dataNameOfSignature(name) : name.replace(/\.gz$/, '');
        if (!/Z\.rcd$/.test(dataName)) continue;
        let entry = byName.get(dataName);
        if (!entry) {
          entry = { signatures: [], dataKeys: new Map() };
          byName.set(dataName, entry);
        }
        if (isSignature) entry.signatures.push({ folder, key });
        else entry.dataKeys.set(folder, key);
      }
    }
    // A folder whose listing was cut at the limit may hold more signatures of names past its last key;
    // only names every listing fully covers are complete.
    let cutoff: string | undefined;
    let cutoffInclusive = true;
    for (const { folder, keys } of listings) {
      const last = keys.at(-1);
      if (keys.length < batch * 2 || !last) continue;
      const name = last.slice(folder.prefix.length).replace(/(_sig|\.gz)$/, '');
      if (cutoff === undefined || name <= cutoff) {
        cutoffInclusive = (name === cutoff ? cutoffInclusive : true) && last.endsWith('_sig');
        cutoff = name;
      }
    }
    const complete = (name: string) => cutoff === undefined || name < cutoff || (name === cutoff && cutoffInclusive);
    // A data file no node signed is pending too once a later file is signed (nodes upload a signature file after
    // its data file): verifying it then names it as the file without signatures, rather than failing the file
    // after it on a broken chain.
    let lastSigned = '';
    for (const [name, entry] of byName) if (entry.signatures.length > 0 && name > lastSigned) lastSigned = name;
    return [...byName.entries()]
      .filter(([name, entry]) => (entry.signatures.length > 0 || name < lastSigned) && complete(name))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, batch)
      .map(([name, entry]) => ({ name, signatures: entry.signatures, dataKeys: entry.dataKeys }));
  }

  /** A sidecar of a record file in `folder`'s `sidecar/` sub-folder. */
  sidecarKey(folder: NodeFolder, sidecarName: string): string {
    return `${folder.prefix}sidecar/${sidecarName}`;
  }
}
