/**
 * The node folders of a bucket or directory for one stream, in either layout the reference importer reads: legacy
 * account-id folders `[recordstreams/]record<shard.realm.num>/` (balances: `[accountBalances/]balance<…>/`), or the
 * HIP-679 node-id layout `<network>/<shard>/<nodeId>/record/` (balances: `…/balance/`).
 */
import type { ObjectStore } from './object-store.ts';

export interface NodeFolder {
  /** The node as the folder names it: account `0.0.3` (legacy) or node id (HIP-679). */
  readonly node: { readonly accountName?: string; readonly nodeId?: bigint };
  /** Key prefix of the folder, ending in `/`. */
  readonly prefix: string;
}

export interface StreamLayoutOptions {
  /** Network folder of the node-id layout (`mainnet`, `testnet`, `demo`…). */
  readonly network?: string;
  readonly shard?: bigint;
}

/** The importer's StreamType paths: the legacy root folder, the node folder's prefix, the node-id sub-folder. */
const LAYOUTS = {
  record: { root: 'recordstreams/', nodePrefix: 'record', nodeIdFolder: 'record/' },
  balance: { root: 'accountBalances/', nodePrefix: 'balance', nodeIdFolder: 'balance/' },
} as const;

export type StreamKind = keyof typeof LAYOUTS;

export async function discoverNodeFolders(
  store: ObjectStore,
  kind: StreamKind,
  options: StreamLayoutOptions,
): Promise<NodeFolder[]> {
  const layout = LAYOUTS[kind];
  const accountFolder = new RegExp(`^${layout.nodePrefix}(\\d+\\.\\d+\\.\\d+)/$`);
  const found: NodeFolder[] = [];
  for (const root of ['', layout.root]) {
    for (const folder of await store.listFolders(root)) {
      const match = accountFolder.exec(folder.slice(root.length));
      if (match?.[1]) found.push({ node: { accountName: match[1] }, prefix: folder });
    }
    if (found.length > 0) return found;
  }
  if (!options.network) return found;
  const shardPrefix = `${options.network}/${options.shard ?? 0n}/`;
  for (const folder of await store.listFolders(shardPrefix)) {
    const id = folder.slice(shardPrefix.length, -1);
    if (/^\d+$/.test(id)) found.push({ node: { nodeId: BigInt(id) }, prefix: `${folder}${layout.nodeIdFolder}` });
  }
  return found;
}
