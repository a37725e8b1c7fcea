/**
 * NodeAddressBook protobufs (system files 0.0.101 / 0.0.102) → the nodes whose RSA keys verify stream
 * signatures. Old books leave node_id 0 and name the account only in `memo`; then node id = account num − 3.
 */
import { hapi } from '../../proto/hapi.ts';
import { FormatError } from './byte-reader.ts';
import { encodeEntityId, idOf } from './ids.ts';
import { toPlain } from './plain.ts';

export interface ServiceEndpoint {
  /** The node id of the listing the endpoint is in, as the book has it (0 in old books that name nodes by account). */
  readonly nodeId: bigint;
  readonly ipAddressV4: string;
  readonly port: number;
  readonly domainName: string;
}

export interface AddressBookNode {
  readonly nodeId: bigint;
  readonly nodeAccountId: bigint;
  /** Hex of a DER SubjectPublicKeyInfo RSA key, as the book stores it. */
  readonly publicKey: string;
  readonly memo: string | undefined;
  readonly description: string | undefined;
  readonly nodeCertHash: Uint8Array | undefined;
  readonly stake: bigint | undefined;
  readonly endpoints: readonly ServiceEndpoint[];
}

interface PlainNode {
  ipAddress?: Uint8Array;
  portno?: number;
  memo?: Uint8Array;
  RSA_PubKey?: string;
  nodeId?: bigint;
  nodeAccountId?: unknown;
  nodeCertHash?: Uint8Array;
  serviceEndpoint?: { ipAddressV4?: Uint8Array; port?: number; domain_name?: string }[];
  description?: string;
  stake?: bigint;
}

export function parseAddressBook(bytes: Uint8Array): AddressBookNode[] {
  let plain: { nodeAddress?: PlainNode[] };
  try {
    plain = toPlain(hapi().NodeAddressBook.decode(bytes)) as typeof plain;
  } catch (error) {
    throw new FormatError(`not a NodeAddressBook: ${(error as Error).message}`);
  }
  const nodes = (plain.nodeAddress ?? []).map(toNode);
  if (nodes.length === 0) throw new FormatError('address book has no nodes');
  return nodes;
}

function toNode(node: PlainNode): AddressBookNode {
  const memo = node.memo && node.memo.length > 0 ? new TextDecoder().decode(node.memo) : undefined;
  let accountId = idOf(node.nodeAccountId, 'accountNum');
  if (accountId === 0n && memo && /^\d+\.\d+\.\d+$/.test(memo)) {
    const [shard, realm, num] = memo.split('.').map(BigInt) as [bigint, bigint, bigint];
    accountId = encodeEntityId(shard, realm, num);
  }
  const listedNodeId = node.nodeId ?? 0n;
  const accountNum = accountId & ((1n << 38n) - 1n);
  const nodeId = listedNodeId === 0n && accountNum > 3n && accountNum < 20n ? accountNum - 3n : listedNodeId;
  // The deprecated IP and port, when the IP is not blank, then every service endpoint (as the importer lists them).
  const deprecatedIp = node.ipAddress ? new TextDecoder().decode(node.ipAddress) : '';
  const endpoints: ServiceEndpoint[] =
    deprecatedIp.trim() === ''
      ? []
      : [{ nodeId: listedNodeId, ipAddressV4: deprecatedIp, port: node.portno ?? 0, domainName: '' }];
  for (const e of node.serviceEndpoint ?? []) {
    endpoints.push({
      nodeId: listedNodeId,
      ipAddressV4: e.ipAddressV4 && e.ipAddressV4.length === 4 ? e.ipAddressV4.join('.') : '',
      port: e.port ?? 0,
      domainName: e.domain_name ?? '',
    });
  }
  return {
    nodeId,
    nodeAccountId: accountId,
    publicKey: (node.RSA_PubKey ?? '').trim(),
    memo,
    description: node.description,
    nodeCertHash: node.nodeCertHash,
    stake: node.stake,
    endpoints,
  };
}
