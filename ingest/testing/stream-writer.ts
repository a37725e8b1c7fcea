/**
 * Writes signed v6 record stream files the way consensus nodes do, for benchmarks and tests: node RSA keys and
 * their address book, gzip RecordStreamFile data files chained by running hash, and one v6 signature file per
 * node over the file hash and the metadata hash, in the legacy `record<account>/` bucket layout.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { hapi } from '../../proto/hapi.ts';
import { sha384 } from '../decode/hash.ts';

export interface TestNode {
  readonly nodeId: number;
  readonly accountNum: number;
  readonly privateKey: KeyObject;
  readonly publicKeyDerHex: string;
}

export function generateNodes(count: number, modulusLength = 2048): TestNode[] {
  return Array.from({ length: count }, (_, i) => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
    return {
      nodeId: i,
      accountNum: i + 3,
      privateKey,
      publicKeyDerHex: publicKey.export({ format: 'der', type: 'spki' }).toString('hex'),
    };
  });
}

export function addressBookBytes(nodes: readonly TestNode[]): Uint8Array {
  const { NodeAddressBook } = hapi();
  return NodeAddressBook.encode(
    NodeAddressBook.fromObject({
      nodeAddress: nodes.map((n) => ({
        RSA_PubKey: n.publicKeyDerHex,
        nodeId: n.nodeId,
        nodeAccountId: { accountNum: n.accountNum },
        memo: Buffer.from(`0.0.${n.accountNum}`),
      })),
    }),
  ).finish();
}

const NANOS = 1_000_000_000n;

function timestamp(ns: bigint) {
  return { seconds: String(ns / NANOS), nanos: Number(ns % NANOS) };
}

/** A successful CryptoTransfer of `amount` from `payer` to `receiver`, paying `fee` to node 0.0.3 and 0.0.98. */
export function cryptoTransferItem(consensusNs: bigint, payer: number, receiver: number, amount: number, fee: number) {
  const types = hapi();
  const transactionID = {
    transactionValidStart: timestamp(consensusNs - 5n * NANOS),
    accountID: { accountNum: payer },
  };
  const bodyBytes = types.TransactionBody.encode(
    types.TransactionBody.fromObject({
      transactionID,
      nodeAccountID: { accountNum: 3 },
      transactionFee: 100_000_000,
      transactionValidDuration: { seconds: 120 },
      memo: Buffer.from('bench'),
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: { accountNum: payer }, amount: -amount },
            { accountID: { accountNum: receiver }, amount },
          ],
        },
      },
    }),
  ).finish();
  const signedTransactionBytes = types.SignedTransaction.encode(
    types.SignedTransaction.fromObject({ bodyBytes, sigMap: { sigPair: [] } }),
  ).finish();
  const transaction = types.Transaction.fromObject({ signedTransactionBytes });
  const nodeFee = Math.floor(fee / 10);
  const record = types.TransactionRecord.fromObject({
    receipt: { status: 22 },
    transactionHash: sha384(types.Transaction.encode(transaction).finish()),
    consensusTimestamp: timestamp(consensusNs),
    transactionID,
    memo: 'bench',
    transactionFee: fee,
    transferList: {
      accountAmounts: [
        { accountID: { accountNum: payer }, amount: -(amount + fee) },
        { accountID: { accountNum: 3 }, amount: nodeFee },
        { accountID: { accountNum: 98 }, amount: fee - nodeFee },
        { accountID: { accountNum: receiver }, amount },
      ],
    },
  });
  return { transaction, record };
}

/** The file name of a record file whose first transaction reaches consensus at `ns`. */
export function recordFileName(ns: bigint): string {
  const iso = new Date(Number(ns / 1_000_000n)).toISOString().slice(0, 19).replaceAll(':', '_');
  return `${iso}.${String(ns % NANOS).padStart(9, '0')}Z.rcd`;
}

export interface WrittenFile {
  readonly name: string;
  readonly hash: Uint8Array;
}

/**
 * Writes one v6 record file (+ signatures from every node) under `dir/record0.0.<account>/` and returns its
 * running hash, which the next file must start from.
 */
export async function writeRecordFile(
  dir: string,
  nodes: readonly TestNode[],
  items: readonly ReturnType<typeof cryptoTransferItem>[],
  startNs: bigint,
  previousHash: Uint8Array,
  blockNumber: bigint,
): Promise<WrittenFile> {
  const types = hapi();
  const endHash = sha384(previousHash, new TextEncoder().encode(`${blockNumber}`));
  const version = { major: 0, minor: 50, patch: 0 };
  const body = types.RecordStreamFile.encode(
    types.RecordStreamFile.fromObject({
      hapi_proto_version: version,
      start_object_running_hash: { algorithm: 1, length: 48, hash: previousHash },
      record_stream_items: items,
      end_object_running_hash: { algorithm: 1, length: 48, hash: endHash },
      block_number: String(blockNumber),
    }),
  ).finish();
  const bytes = new Uint8Array(4 + body.length);
  new DataView(bytes.buffer).setInt32(0, 6);
  bytes.set(body, 4);
  const fileHash = sha384(bytes);
  const metadata = new DataView(new ArrayBuffer(16 + 96 + 8));
  metadata.setInt32(0, 6);
  metadata.setInt32(4, version.major);
  metadata.setInt32(8, version.minor);
  metadata.setInt32(12, version.patch);
  const metadataBytes = new Uint8Array(metadata.buffer);
  metadataBytes.set(previousHash, 16);
  metadataBytes.set(endHash, 64);
  metadata.setBigInt64(112, blockNumber);
  const metadataHash = sha384(metadataBytes);
  const name = recordFileName(startNs);
  const gzipped = gzipSync(bytes, { level: 1 });
  for (const node of nodes) {
    const folder = path.join(dir, `record0.0.${node.accountNum}`);
    await mkdir(folder, { recursive: true });
    const signatureObject = (hash: Uint8Array) => {
      const signature = sign('sha384', hash, node.privateKey);
      return {
        type: 1,
        length: signature.length,
        checksum: 101 - signature.length,
        signature,
        hash_object: { algorithm: 1, length: 48, hash },
      };
    };
    const signatureFile = types.SignatureFile.encode(
      types.SignatureFile.fromObject({
        file_signature: signatureObject(fileHash),
        metadata_signature: signatureObject(metadataHash),
      }),
    ).finish();
    const sigBytes = new Uint8Array(1 + signatureFile.length);
    sigBytes[0] = 6;
    sigBytes.set(signatureFile, 1);
    await writeFile(path.join(folder, `${name}.gz`), gzipped);
    await writeFile(path.join(folder, `${name}_sig`), sigBytes);
  }
  return { name, hash: endHash };
}
