/**
 * The verifying side of an address book: each node's RSA public key and its consensus weight. Built from
 * the decoded book (0.0.102) plus, once the network stakes, the latest node_stake values.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { AddressBookNode } from '../decode/address-book.ts';
import { entityIdString } from '../decode/ids.ts';

export interface NodeKey {
  readonly nodeId: bigint;
  readonly nodeAccountId: bigint;
  /** `shard.realm.num` of the node account: the legacy bucket folder names nodes this way. */
  readonly accountName: string;
  readonly publicKey: KeyObject;
}

export interface NodeKeys {
  readonly nodes: readonly NodeKey[];
  /** Consensus weight per node id; nodes absent weigh 0 when stakes are known. */
  readonly stakes: ReadonlyMap<bigint, bigint> | undefined;
}

export function nodeKeysOf(book: readonly AddressBookNode[], stakes?: ReadonlyMap<bigint, bigint>): NodeKeys {
  const nodes: NodeKey[] = [];
  for (const node of book) {
    if (!node.publicKey) continue;
    const publicKey = createPublicKey({ key: Buffer.from(node.publicKey, 'hex'), format: 'der', type: 'spki' });
    nodes.push({
      nodeId: node.nodeId,
      nodeAccountId: node.nodeAccountId,
      accountName: entityIdString(node.nodeAccountId),
      publicKey,
    });
  }
  const usableStakes = stakes && [...stakes.values()].some((s) => s > 0n) ? stakes : undefined;
  return { nodes, stakes: usableStakes };
}
