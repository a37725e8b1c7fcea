/**
 * The Construction API against the local network as `npm start` runs it: transactions built, signed and submitted
 * through `/rosetta/construction` reach consensus nodes found in the mirror's address book, and come back through
 * the Data API in a later block, with their operations, `SUCCESS`, and balances moved by exactly their operations.
 * Accounts are created with an ED25519 and an ECDSA secp256k1 key; the ED25519 one then pays a transfer it signs.
 */
import { readdirSync } from 'node:fs';
import { PrivateKey } from '@hiero-ledger/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_PRIVATE_KEY_DER } from '../../../simulator/network/genesis.ts';
import { recordDirectory } from '../../../simulator/write/layout.ts';
import { type LocalNetwork, startLocalNetwork } from '../../../test/harness/local-network.ts';
import { hbarOperation, MESH_NETWORK, postMesh } from '../../../test/harness/mesh-document.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const { db, worker } = registerWorkerSuite();
const GENESIS = PrivateKey.fromStringDer(GENESIS_PRIVATE_KEY_DER);
const TREASURY = '0.0.2';

const post = (endpoint: string, body: Record<string, unknown> = {}) =>
  postMesh(worker.baseUrl, endpoint, { network_identifier: MESH_NETWORK, ...body });

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let network: LocalNetwork;

beforeAll(async () => {
  network = await startLocalNetwork(db.url);
  const recordFiles = () => {
    try {
      return readdirSync(recordDirectory(network.out, 3n)).some((name) => name.endsWith('.rcd.gz'));
    } catch {
      return false;
    }
  };
  await until('the first record file', async () => (recordFiles() ? true : undefined));
  await until('the genesis block and the address book', async () => {
    const status = await post('/network/status');
    const metadata = await post('/construction/metadata', { options: { operation_type: 'CRYPTOTRANSFER' } });
    return status.status === 200 && metadata.status === 200 ? true : undefined;
  });
}, 120_000);

afterAll(async () => {
  await network?.stop();
});

const currentIndex = async () => BigInt((await post('/network/status')).body.current_block_identifier.index);

/** preprocess → metadata → payloads → sign → combine → submit; the hash and the block index it was sent after. */
async function submitted(operations: object[], signer: PrivateKey) {
  const construction = (endpoint: string, body: Record<string, unknown>) => post(`/construction${endpoint}`, body);
  const { body: preprocess } = await construction('/preprocess', { operations });
  const { body: metadata } = await construction('/metadata', { options: preprocess.options });
  expect(metadata.metadata.node_account_id).toMatch(/^0\.0\.[3-6]$/);
  const { body: payloads } = await construction('/payloads', { operations, metadata: metadata.metadata });
  const signatures = (payloads.payloads as { hex_bytes: string }[]).map((payload) => ({
    signing_payload: payload,
    public_key: { hex_bytes: signer.publicKey.toStringRaw(), curve_type: 'edwards25519' },
    signature_type: 'ed25519',
    hex_bytes: Buffer.from(signer.sign(Buffer.from(payload.hex_bytes, 'hex'))).toString('hex'),
  }));
  const combined = await construction('/combine', { unsigned_transaction: payloads.unsigned_transaction, signatures });
  const signed = combined.body.signed_transaction;
  const after = await currentIndex();
  const answer = await construction('/submit', { signed_transaction: signed });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { hash: answer.body.transaction_identifier.hash as string, after };
}

interface MeshOperation {
  type: string;
  status: string;
  account: { address: string };
  amount: { value: string };
}

/** The block (after `after`) holding the transaction of `hash`, and the transaction. */
async function blockOf(hash: string, after: bigint) {
  let next = after + 1n;
  return until(
    `transaction ${hash} in a block`,
    async () => {
      const current = await currentIndex();
      for (; next <= current; next++) {
        const { body } = await post('/block', { block_identifier: { index: Number(next) } });
        const transactions = body.block.transactions as {
          transaction_identifier: { hash: string };
          operations: MeshOperation[];
          metadata?: { entity_id?: string };
        }[];
        const transaction = transactions.find((t) => t.transaction_identifier.hash === hash);
        if (transaction) return { index: next, block: body.block, transaction };
      }
      return undefined;
    },
    30_000,
  );
}

const balanceAt = async (address: string, index: bigint) =>
  BigInt(
    (
      await post('/account/balance', {
        account_identifier: { address },
        block_identifier: { index: Number(index) },
      })
    ).body.balances[0].value,
  );

/** Every account the block's operations touch moved by exactly those operations from the block before. */
async function expectBalancesMoved(index: bigint, block: { transactions: { operations: MeshOperation[] }[] }) {
  const moved = new Map<string, bigint>();
  for (const transaction of block.transactions) {
    for (const op of transaction.operations) {
      if (op.status !== 'SUCCESS') continue;
      moved.set(op.account.address, (moved.get(op.account.address) ?? 0n) + BigInt(op.amount.value));
    }
  }
  for (const [address, amount] of moved) {
    expect(await balanceAt(address, index), address).toBe((await balanceAt(address, index - 1n)) + amount);
  }
  return moved;
}

describe('transactions built through /rosetta/construction on the local network', () => {
  const edKey = PrivateKey.generateED25519();
  const ecdsaKey = PrivateKey.generateECDSA();
  let edAccount = '';

  it.each([
    ['ED25519', edKey, 1_000_000_000n],
    ['ECDSA secp256k1', ecdsaKey, 500_000_000n],
  ])('creates an account with an %s key, seen in a later block with its balance', async (name, key, initial) => {
    const create = hbarOperation(0, 'CRYPTOCREATEACCOUNT', TREASURY, -initial, { key: key.publicKey.toStringDer() });
    const { hash, after } = await submitted([create], GENESIS);
    const { index, block, transaction } = await blockOf(hash, after);
    const created = transaction.metadata?.entity_id as string;
    expect(created).toMatch(/^0\.0\.\d+$/);
    expect(transaction.operations.every((op) => op.status === 'SUCCESS')).toBe(true);
    // The initial balance is no body transfer of a CryptoTransfer: the reference shows it among the FEE operations.
    expect(transaction.operations).toContainEqual(
      expect.objectContaining({
        type: 'FEE',
        account: { address: created },
        amount: expect.objectContaining({ value: initial.toString() }),
      }),
    );
    await expectBalancesMoved(index, block);
    expect(await balanceAt(created, index)).toBe(initial);
    if (name === 'ED25519') edAccount = created;
  });

  it('moves hbar from the ED25519 account, signed by its own key, seen with its operations and balances', async () => {
    expect(edAccount).not.toBe('');
    const operations = [
      hbarOperation(0, 'CRYPTOTRANSFER', edAccount, -12_345n),
      hbarOperation(1, 'CRYPTOTRANSFER', TREASURY, 12_345n),
    ];
    const { hash, after } = await submitted(operations, edKey);
    const { index, block, transaction } = await blockOf(hash, after);
    const transfers = transaction.operations.filter((op) => op.type === 'CRYPTOTRANSFER');
    expect(transfers.map((op) => [op.account.address, op.amount.value, op.status])).toEqual([
      [edAccount, '-12345', 'SUCCESS'],
      [TREASURY, '12345', 'SUCCESS'],
    ]);
    const moved = await expectBalancesMoved(index, block);
    // The payer paid the transfer and its fee.
    expect((moved.get(edAccount) ?? 0n) < -12_345n).toBe(true);
  });
});
