/**
 * The simulated nodes' RSA-3072 signing keys (test keys, committed under simulator/keys/, never used for
 * anything real) and the NodeAddressBook that publishes their public halves, laid out like the network's
 * 0.0.102 book: hex DER SubjectPublicKeyInfo in `RSA_PubKey`, node id, node account, memo "0.0.N".
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hapi } from '../../proto/hapi.ts';
import { accountPb, idString, nodeAccount } from '../ledger/ids.ts';

export const MAX_NODES = 7;

export interface SimNode {
  readonly nodeId: number;
  readonly accountNum: bigint;
  readonly privateKey: KeyObject;
  /** Hex of the DER SubjectPublicKeyInfo, as address books carry it. */
  readonly publicKeyHex: string;
}

export function loadNodes(count: number): SimNode[] {
  if (count < 1 || count > MAX_NODES) throw new Error(`--nodes must be between 1 and ${MAX_NODES}`);
  return Array.from({ length: count }, (_, nodeId) => {
    const pem = readFileSync(new URL(`../keys/node-${nodeId}.pem`, import.meta.url), 'utf8');
    const privateKey = createPrivateKey(pem);
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    return { nodeId, accountNum: nodeAccount(nodeId), privateKey, publicKeyHex: spki.toString('hex') };
  });
}

/** SHA384withRSA (PKCS#1 v1.5) over the 48 hash bytes themselves, which is what nodes sign. */
export function signHash(node: SimNode, hash: Uint8Array): Uint8Array {
  return new Uint8Array(sign('sha384', hash, node.privateKey));
}

/** The book, with node n's gRPC endpoint at 127.0.0.1:`basePort + n` (where a live run's nodes listen). */
export function addressBookBytes(nodes: readonly SimNode[], basePort = 50211): Uint8Array {
  const encoder = new TextEncoder();
  return hapi()
    .NodeAddressBook.encode({
      nodeAddress: nodes.map((node) => ({
        ipAddress: encoder.encode('127.0.0.1'),
        memo: encoder.encode(idString(node.accountNum)),
        RSA_PubKey: node.publicKeyHex,
        ...(node.nodeId > 0 ? { nodeId: node.nodeId } : {}),
        nodeAccountId: accountPb(node.accountNum),
        serviceEndpoint: [{ ipAddressV4: new Uint8Array([127, 0, 0, 1]), port: basePort + node.nodeId }],
        description: `simulated node ${node.nodeId}`,
        stake: '1',
      })),
    })
    .finish();
}
