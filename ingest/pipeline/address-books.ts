/**
 * The address books the ingest verifies with. System file 0.0.102 (and 0.0.101) are written as a
 * create/update followed by appends; whenever the accumulated bytes parse as a NodeAddressBook, a new
 * `address_book` version starts at the next nanosecond and, for 0.0.102, its keys verify later files.
 */
import { type AddressBookNode, parseAddressBook, type ServiceEndpoint } from '../decode/address-book.ts';
import { encodeEntityId } from '../decode/ids.ts';
import type { FileRows } from '../derive/file-rows.ts';
import { type NodeKeys, nodeKeysOf } from '../verify/node-keys.ts';

export const ADDRESS_BOOK_101 = encodeEntityId(0n, 0n, 101n);
export const ADDRESS_BOOK_102 = encodeEntityId(0n, 0n, 102n);
const FILE_CREATE = 17;
const FILE_UPDATE = 19;

export interface AddressBookVersion {
  readonly fileId: bigint;
  readonly start: bigint;
  readonly bytes: Uint8Array;
  readonly nodes: readonly AddressBookNode[];
}

export class AddressBooks {
  private current: readonly AddressBookNode[];
  private stakes: ReadonlyMap<bigint, bigint> | undefined;
  private cachedKeys: NodeKeys | undefined;
  /** Bytes of the latest create/update plus later appends, per book file. */
  private readonly pending = new Map<bigint, Uint8Array>();

  constructor(
    current: readonly AddressBookNode[],
    pending: ReadonlyMap<bigint, Uint8Array>,
    stakes?: ReadonlyMap<bigint, bigint>,
  ) {
    this.current = current;
    for (const [file, bytes] of pending) this.pending.set(file, bytes);
    this.stakes = stakes;
  }

  get nodes(): readonly AddressBookNode[] {
    return this.current;
  }

  keys(): NodeKeys {
    this.cachedKeys ??= nodeKeysOf(this.current, this.stakes);
    return this.cachedKeys;
  }

  /**
   * Follows the file_data rows of one record file; returns the book versions they complete, adding their
   * rows to `rows`. Call `commit` with them once the file is written.
   */
  follow(rows: FileRows): AddressBookVersion[] {
    const versions: AddressBookVersion[] = [];
    const pending = new Map(this.pending);
    for (const row of rows.rows('file_data')) {
      const fileId = row.entity_id as bigint;
      if (fileId !== ADDRESS_BOOK_101 && fileId !== ADDRESS_BOOK_102) continue;
      const data = row.file_data as Uint8Array;
      const type = row.transaction_type as number;
      const bytes = type === FILE_CREATE || type === FILE_UPDATE ? data : concat(pending.get(fileId), data);
      pending.set(fileId, bytes);
      let nodes: AddressBookNode[];
      try {
        nodes = parseAddressBook(bytes);
      } catch {
        continue;
      }
      const timestamp = row.consensus_timestamp as bigint;
      versions.push({ fileId, start: timestamp + 1n, bytes, nodes });
      addVersionRows(rows, { fileId, start: timestamp + 1n, bytes, nodes }, timestamp);
    }
    this.staged = pending;
    return versions;
  }

  private staged: Map<bigint, Uint8Array> | undefined;

  /** After the file's transaction committed: later files verify with the newest 0.0.102 book. */
  commit(versions: readonly AddressBookVersion[], stakes?: ReadonlyMap<bigint, bigint>): void {
    if (this.staged) {
      this.pending.clear();
      for (const [file, bytes] of this.staged) this.pending.set(file, bytes);
      this.staged = undefined;
    }
    const latest = versions.filter((v) => v.fileId === ADDRESS_BOOK_102).at(-1);
    if (latest) {
      this.current = latest.nodes;
      this.cachedKeys = undefined;
    }
    if (stakes && stakes.size > 0) {
      this.stakes = stakes;
      this.cachedKeys = undefined;
    }
  }

  /** Discards what `follow` staged for a file that was not written. */
  rollback(): void {
    this.staged = undefined;
  }
}

function concat(a: Uint8Array | undefined, b: Uint8Array): Uint8Array {
  if (!a || a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** `address_book`, its entries and service endpoints for one version; `closedAt` ends the previous one. */
export function addVersionRows(rows: FileRows, version: AddressBookVersion, closedAt: bigint | undefined): void {
  if (closedAt !== undefined) {
    const open = rows
      .rows('address_book')
      .find((r) => r.file_id === version.fileId && r.end_consensus_timestamp === null) as
      | Record<string, unknown>
      | undefined;
    if (open) open.end_consensus_timestamp = closedAt;
    else rows.closeAddressBook(version.fileId, closedAt);
  }
  rows.insert('address_book', {
    start_consensus_timestamp: version.start,
    end_consensus_timestamp: null,
    file_id: version.fileId,
    node_count: version.nodes.length,
    file_data: version.bytes,
  });
  // A node listed more than once (older books list one entry per endpoint) is one entry, the first listing's,
  // with the endpoints of all its listings.
  const entries = new Map<bigint, { node: AddressBookNode; endpoints: Map<string, ServiceEndpoint> }>();
  for (const node of version.nodes) {
    let entry = entries.get(node.nodeId);
    if (!entry) {
      entry = { node, endpoints: new Map() };
      entries.set(node.nodeId, entry);
    }
    for (const e of node.endpoints) entry.endpoints.set(`${e.nodeId}|${e.ipAddressV4}|${e.port}|${e.domainName}`, e);
  }
  for (const { node, endpoints } of entries.values()) {
    rows.insert('address_book_entry', {
      consensus_timestamp: version.start,
      memo: node.memo ?? null,
      public_key: node.publicKey,
      node_id: node.nodeId,
      node_account_id: node.nodeAccountId,
      node_cert_hash: node.nodeCertHash && node.nodeCertHash.length > 0 ? node.nodeCertHash : null,
      // Protobuf's defaults for unset fields, as the importer reads them.
      description: node.description ?? '',
      stake: node.stake ?? 0n,
    });
    for (const endpoint of endpoints.values()) {
      rows.insert('address_book_service_endpoint', {
        consensus_timestamp: version.start,
        ip_address_v4: endpoint.ipAddressV4,
        // The listing's own node id, as the importer writes it: 0 for every node of a book that names none.
        node_id: endpoint.nodeId,
        port: endpoint.port,
        domain_name: endpoint.domainName,
      });
    }
  }
}
