import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import { parseAddressBook } from '../decode/address-book.ts';
import { FileRows } from '../derive/file-rows.ts';
import { ADDRESS_BOOK_102, addVersionRows } from './address-books.ts';

const KEY = '308201a2300d06092a864886f70d01010105000382018f00';
const ip = (text: string) => new TextEncoder().encode(text);

/** A book as older networks wrote it: node 0 listed twice (one listing per IP), node 1 with only its account. */
function book(): Uint8Array {
  const types = hapi();
  const nodeAddress = [
    { ipAddress: ip('10.0.0.1'), portno: 50211, nodeId: 0, nodeAccountId: { accountNum: 3 }, RSA_PubKey: KEY },
    {
      ipAddress: ip('35.1.1.1'),
      portno: 50211,
      nodeId: 0,
      nodeAccountId: { accountNum: 3 },
      RSA_PubKey: KEY,
      serviceEndpoint: [{ ipAddressV4: new Uint8Array([35, 1, 1, 1]), port: 50212 }],
    },
    { nodeId: 1, nodeAccountId: { accountNum: 4 }, RSA_PubKey: KEY, nodeCertHash: new Uint8Array() },
  ];
  return types.NodeAddressBook.encode(types.NodeAddressBook.fromObject({ nodeAddress })).finish();
}

describe('the rows of an address book version', () => {
  const bytes = book();
  const nodes = parseAddressBook(bytes);
  const rows = new FileRows();
  addVersionRows(rows, { fileId: ADDRESS_BOOK_102, start: 10n, bytes, nodes }, undefined);

  it("count every listing but write one entry per node, with protobuf's defaults for unset fields", () => {
    expect(rows.rows('address_book')[0]?.node_count).toBe(3);
    expect(rows.rows('address_book_entry')).toEqual([
      {
        consensus_timestamp: 10n,
        memo: null,
        public_key: KEY,
        node_id: 0n,
        node_account_id: 3n,
        node_cert_hash: null,
        description: '',
        stake: 0n,
      },
      {
        consensus_timestamp: 10n,
        memo: null,
        public_key: KEY,
        node_id: 1n,
        node_account_id: 4n,
        node_cert_hash: null,
        description: '',
        stake: 0n,
      },
    ]);
  });

  it("list each listing's deprecated IP and its service endpoints, each endpoint once", () => {
    expect(rows.rows('address_book_service_endpoint').map((e) => [e.node_id, e.ip_address_v4, e.port])).toEqual([
      [0n, '10.0.0.1', 50211],
      [0n, '35.1.1.1', 50211],
      [0n, '35.1.1.1', 50212],
    ]);
  });

  it("write a book's own node id into its endpoints: 0 in an old book that names its nodes by account only", () => {
    const types = hapi();
    const nodeAddress = [5, 6].map((account) => ({
      ipAddress: ip(`10.0.0.${account}`),
      portno: 50211,
      memo: ip(`0.0.${account}`),
      RSA_PubKey: KEY,
    }));
    const old = types.NodeAddressBook.encode(types.NodeAddressBook.fromObject({ nodeAddress })).finish();
    const oldRows = new FileRows();
    addVersionRows(
      oldRows,
      { fileId: ADDRESS_BOOK_102, start: 20n, bytes: old, nodes: parseAddressBook(old) },
      undefined,
    );
    expect(oldRows.rows('address_book_entry').map((e) => [e.node_id, e.node_account_id])).toEqual([
      [2n, 5n],
      [3n, 6n],
    ]);
    expect(oldRows.rows('address_book_service_endpoint').map((e) => [e.node_id, e.ip_address_v4])).toEqual([
      [0n, '10.0.0.5'],
      [0n, '10.0.0.6'],
    ]);
  });
});
