/**
 * Account balance files in a bucket or directory (`accountBalances/balance0.0.3/<instant>_Balances.csv|.pb.gz` with
 * `.csv_sig` / `.pb_sig.gz`, or `<network>/<shard>/<nodeId>/balance/`): lists the signed files after the newest one
 * the database has, oldest first. A `.csv` and a `.pb` file of one instant are two files, in name order, as the
 * reference importer lists them; the second is skipped when written (sink/balance-file.ts).
 */
import { instantOfName } from '../decode/stream-file-name.ts';
import { discoverNodeFolders, type NodeFolder, type StreamLayoutOptions } from './node-folders.ts';
import type { ObjectStore } from './object-store.ts';

export interface PendingBalanceFile {
  /** Data file name without compression suffix: `2021-03-10T22_12_56.075092Z_Balances.pb`. */
  readonly name: string;
  /** The instant the name carries (nanoseconds): the file's consensus time. */
  readonly instant: bigint;
  readonly signatures: readonly { readonly folder: NodeFolder; readonly key: string }[];
  /** Data file keys per folder, as listed (`.csv`, `.pb.gz`). */
  readonly dataKeys: ReadonlyMap<NodeFolder, string>;
}

const SIGNATURE = /Z_Balances\.(csv|pb)_sig(\.gz)?$/;
const DATA = /Z_Balances\.(csv|pb)(\.gz)?$/;
/** Keys listed per node folder and look; files are 15 minutes apart, so one look covers days. */
const LIST_LIMIT = 1_000;

/** `X_Balances.csv` → `X_Balances`: the listing starts after `X_Balances_`, past all of X's files ('_' > '.'). */
export function balanceStem(name: string): string {
  return name.replace(/\.(csv|pb)(_sig)?(\.gz)?$/, '');
}

export class BalanceStreamSource {
  readonly store: ObjectStore;
  private readonly options: StreamLayoutOptions;
  private folders: NodeFolder[] | undefined;

  constructor(store: ObjectStore, options: StreamLayoutOptions = {}) {
    this.store = store;
    this.options = options;
  }

  async nodeFolders(): Promise<NodeFolder[]> {
    if (this.folders && this.folders.length > 0) return this.folders;
    this.folders = await discoverNodeFolders(this.store, 'balance', this.options);
    return this.folders;
  }

  /** Files at least one node signed after the file named `lastName` (oldest first). */
  async nextFiles(lastName: string | undefined): Promise<PendingBalanceFile[]> {
    const folders = await this.nodeFolders();
    const byName = new Map<
      string,
      { signatures: PendingBalanceFile['signatures'][number][]; dataKeys: Map<NodeFolder, string> }
    >();
    let cutoff: string | undefined;
    for (const folder of folders) {
      const startAfter = lastName ? `${folder.prefix}${balanceStem(lastName)}_` : '';
      const keys = await this.store.list(folder.prefix, startAfter, LIST_LIMIT);
      // A listing cut at the limit may miss later files of this node: keep only names every listing covers.
      const last = keys.at(-1);
      if (keys.length === LIST_LIMIT && last) {
        const name = last.slice(folder.prefix.length);
        if (cutoff === undefined || name < cutoff) cutoff = name;
      }
      for (const key of keys) {
        const file = key.slice(folder.prefix.length);
        if (file.includes('/')) continue;
        const isSignature = SIGNATURE.test(file);
        if (!isSignature && !DATA.test(file)) continue;
        const name = (isSignature ? file.replace(/_sig(\.gz)?$/, '') : file).replace(/\.gz$/, '');
        let entry = byName.get(name);
        if (!entry) {
          entry = { signatures: [], dataKeys: new Map() };
          byName.set(name, entry);
        }
        if (isSignature) entry.signatures.push({ folder, key });
        else entry.dataKeys.set(folder, key);
      }
    }
    return [...byName.entries()]
      .filter(([name, entry]) => entry.signatures.length > 0 && (cutoff === undefined || name < cutoff))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, entry]) => ({ name, instant: instantOfName(name), ...entry }));
  }
}
