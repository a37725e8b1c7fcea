/**
 * A client of one simulated consensus node without gRPC, for tests: a transaction body signed as an SDK signs it (a
 * signature pair per key: ed25519 over the body bytes, ECDSA over their keccak-256), submitted through the node's precheck, handed to
 * consensus, and its record read back with the status named. Operator 0.0.2 holds the genesis key.
 */
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hapi } from '../../proto/hapi.ts';
import { SimEvm } from '../evm/evm.ts';
import { GENESIS_PRIVATE_KEY, genesisKey } from '../network/genesis.ts';
import { Network } from '../network/network.ts';
import { ConsensusNode } from '../node/consensus.ts';
import { nodeTypes } from '../node/node-proto.ts';
import { Random } from '../random.ts';

type Pb = Record<string, unknown>;

export const NOW_NS = 1_800_000_000_000_000_000n;
const seconds = (ns: bigint) => ({ seconds: String(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) });

/** What consensus made of a submitted transaction: its status by name, its receipt and record as decoded objects. */
export interface Handled {
  readonly status: string;
  readonly receipt: Pb;
  readonly record: Pb;
}

export const edKey = () => {
  const privateKey = new Uint8Array(randomBytes(32));
  return { privateKey, publicKey: ed25519.getPublicKey(privateKey) };
};

export type TestKey = ReturnType<typeof edKey>;

/** An ed25519 private key, or an ECDSA (secp256k1) one, which signs the keccak-256 of the body bytes. */
export type Signer = Uint8Array | { readonly ecdsa: Uint8Array };

export class NodeClient {
  readonly net = new Network({ random: new Random('node-client'), nodeCount: 4, tps: 10, startNs: NOW_NS });
  readonly evm = new SimEvm();
  readonly consensus = new ConsensusNode(this.net, this.evm);
  private nowNs = NOW_NS;
  private sequence = 0n;

  constructor() {
    this.net.ledger.account(2n).key = genesisKey();
  }

  /** The signed Transaction bytes of `data` (`{ tokenUpdate: {...} }`) paid by `payer`, signed by it and `signers`. */
  sign(data: Pb, signers: readonly Signer[] = [], payer = 2n): { bytes: Uint8Array; transactionID: Pb } {
    const types = nodeTypes();
    this.sequence += 1n;
    const transactionID = {
      transactionValidStart: seconds(this.nowNs - 5_000_000_000n + this.sequence),
      // The SDK names shard and realm explicitly, as 0.
      accountID: { shardNum: '0', realmNum: '0', accountNum: String(payer) },
    };
    const body = {
      transactionID,
      nodeAccountID: { accountNum: 3 },
      transactionFee: '1000000000000',
      transactionValidDuration: { seconds: 120 },
      ...data,
    };
    const bodyBytes = types.TransactionBody.encode(types.TransactionBody.fromObject(body)).finish();
    const keys = payer === 2n ? [GENESIS_PRIVATE_KEY, ...signers] : signers;
    const sigPair = keys.map((key) =>
      key instanceof Uint8Array
        ? { pubKeyPrefix: ed25519.getPublicKey(key), ed25519: ed25519.sign(bodyBytes, key) }
        : {
            pubKeyPrefix: secp256k1.getPublicKey(key.ecdsa, true),
            ECDSA_secp256k1: secp256k1.sign(keccak_256(bodyBytes), key.ecdsa, { prehash: false }),
          },
    );
    const signed = types.SignedTransaction.encode({ bodyBytes, sigMap: { sigPair } }).finish();
    return { bytes: types.Transaction.encode({ signedTransactionBytes: signed }).finish(), transactionID };
  }

  /** The node's precheck answer, by name (OK: queued for consensus). */
  submit(bytes: Uint8Array): string {
    const status = this.consensus.submit(bytes, 0, this.nowNs);
    return this.statusName(status);
  }

  /** Submits, hands it to consensus, and answers what consensus made of it; a precheck failure throws. */
  async run(data: Pb, signers: readonly Signer[] = [], payer = 2n): Promise<Handled> {
    const { bytes, transactionID } = this.sign(data, signers, payer);
    const precheck = this.submit(bytes);
    if (precheck !== 'OK') throw new Error(`precheck: ${precheck}`);
    this.nowNs += 1_000_000n;
    await this.consensus.handleQueued(this.nowNs);
    const items = this.net.drain();
    const ownId = JSON.stringify(transactionID);
    const item = items.find((candidate) => {
      const id = candidate.body.transactionID as Pb;
      // Children share the parent's id, told apart by a nonce.
      if (id.nonce) return false;
      return JSON.stringify({ transactionValidStart: id.transactionValidStart, accountID: id.accountID }) === ownId;
    });
    if (!item) throw new Error('no record for the transaction');
    const type = hapi().TransactionRecord;
    const record = type.toObject(type.decode(item.recordBytes), {
      longs: String,
      enums: String,
      defaults: false,
    }) as Pb;
    const receipt = (record.receipt ?? {}) as Pb;
    return { status: String(receipt.status), receipt, record };
  }

  /** A new account under a fresh ed25519 key, funded by 0.0.2. */
  async account(fields: Pb = {}, hbar = 100n): Promise<{ num: bigint; key: TestKey; id: Pb }> {
    const key = edKey();
    const { receipt } = await this.run({
      cryptoCreateAccount: { key: { ed25519: key.publicKey }, initialBalance: String(hbar * 100_000_000n), ...fields },
    });
    const num = BigInt(String((receipt.accountID as Pb).accountNum));
    return { num, key, id: { accountNum: String(num) } };
  }

  private statusName(status: number): string {
    const names = nodeTypes().codes;
    return Object.keys(names).find((name) => names[name] === status) ?? String(status);
  }
}
