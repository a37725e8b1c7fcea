/**
 * Accounts a transfer creates on a node: an EVM address alias makes a hollow account, a key alias an account with
 * that key, each recorded as a CryptoCreate child preceding the transfer and answered in the receipt's children.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { NOW_NS, NodeClient } from '../testing/node-client.ts';
import { code, nodeTypes } from './node-proto.ts';
import { answerQuery } from './queries/answer.ts';

type Pb = Record<string, unknown>;

const hbarTo = (alias: Uint8Array, amount: number) => ({
  cryptoTransfer: {
    transfers: {
      accountAmounts: [
        { accountID: { accountNum: '2' }, amount: String(-amount) },
        { accountID: { alias }, amount: String(amount) },
      ],
    },
  },
});

function evmAddressOf(privateKey: Uint8Array): Uint8Array {
  return keccak_256(secp256k1.getPublicKey(privateKey, false).subarray(1)).subarray(12);
}

describe('accounts a transfer creates on a node', () => {
  it('makes a hollow account for an unknown EVM address, recorded as a child just before the transfer', async () => {
    const client = new NodeClient();
    const evm = evmAddressOf(secp256k1.utils.randomSecretKey());
    const { bytes, transactionID } = client.sign(hbarTo(evm, 500));
    expect(client.submit(bytes)).toBe('OK');
    await client.consensus.handleQueued(NOW_NS + 1_000_000n);
    const [child, parent] = client.net.drain();
    if (!child || !parent) throw new Error('expected a child and its parent');

    expect(child.consensusNs).toBe(parent.consensusNs - 1n);
    expect((child.body.transactionID as Pb).nonce).toBe(1);
    expect(child.body.cryptoCreateAccount).toMatchObject({ alias: evm, key: { keyList: { keys: [] } } });
    const num = client.net.ledger.entityOfAddress(evm);
    expect(num).toBeDefined();
    const account = client.net.ledger.account(num ?? 0n);
    expect([account.balance, account.maxAutoAssociations, account.memo]).toEqual([500n, -1, 'lazy-created account']);
    expect(child.record.evm_address).toEqual(evm);

    const type = nodeTypes().Query;
    const query = type
      .encode(type.fromObject({ transactionGetReceipt: { transactionID, include_child_receipts: true } }))
      .finish();
    const response = nodeTypes().Response;
    const answer = response.toObject(
      response.decode(
        await answerQuery(query, { consensus: client.consensus, evm: client.evm, nodeId: 0, nowNs: NOW_NS }),
      ),
      { longs: String },
    ) as { transactionGetReceipt: { child_transaction_receipts: Pb[] } };
    expect(answer.transactionGetReceipt.child_transaction_receipts).toEqual([
      expect.objectContaining({
        status: code('SUCCESS'),
        accountID: expect.objectContaining({ accountNum: String(num) }),
      }),
    ]);

    const again = await client.run(hbarTo(evm, 100));
    expect(again.status).toBe('SUCCESS');
    expect(client.net.ledger.account(num ?? 0n).balance).toBe(600n);
  });

  it('makes an account with the key an ED25519 key alias names, and finds it by that alias afterwards', async () => {
    const client = new NodeClient();
    const publicKey = ed25519.getPublicKey(ed25519.utils.randomSecretKey());
    const alias = nodeTypes().Key.encode({ ed25519: publicKey }).finish();
    const { status, record } = await client.run(hbarTo(alias, 1_000));
    expect(status).toBe('SUCCESS');
    const num = client.net.ledger.entityOfKeyAlias(alias);
    expect(num).toBeDefined();
    const account = client.net.ledger.account(num ?? 0n);
    expect(account.key).toEqual({ kind: 'ed25519', publicKey });
    expect((record.transferList as { accountAmounts: Pb[] }).accountAmounts).toContainEqual({
      accountID: { accountNum: String(num) },
      amount: '1000',
    });
    expect((await client.run(hbarTo(alias, 1))).status).toBe('SUCCESS');
    expect(client.net.ledger.account(num ?? 0n).balance).toBe(1_001n);
  });

  it('refuses a debit from an alias no account has', async () => {
    const client = new NodeClient();
    const evm = evmAddressOf(secp256k1.utils.randomSecretKey());
    const debit = {
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: { alias: evm }, amount: '-5' },
            { accountID: { accountNum: '2' }, amount: '5' },
          ],
        },
      },
    };
    expect((await client.run(debit)).status).toBe('INVALID_ACCOUNT_ID');
  });

  it('completes a hollow account that pays with the ECDSA key behind its address, recorded as a CryptoUpdate child', async () => {
    const client = new NodeClient();
    const privateKey = secp256k1.utils.randomSecretKey();
    const evm = evmAddressOf(privateKey);
    await client.run(hbarTo(evm, 500_000_000));
    const num = client.net.ledger.entityOfAddress(evm) ?? 0n;
    const pays = {
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: { accountNum: String(num) }, amount: '-1000' },
            { accountID: { accountNum: '2' }, amount: '1000' },
          ],
        },
      },
    };
    expect(client.submit(client.sign(pays, [], num).bytes)).toBe('INVALID_SIGNATURE');
    const { bytes } = client.sign(pays, [{ ecdsa: privateKey }], num);
    expect(client.submit(bytes)).toBe('OK');
    await client.consensus.handleQueued(NOW_NS + 10_000_000n);
    const [child, parent] = client.net.drain();
    if (!child || !parent) throw new Error('expected a child and its parent');

    expect(child.consensusNs).toBe(parent.consensusNs - 1n);
    expect(child.body.cryptoUpdateAccount).toMatchObject({
      accountIDToUpdate: { accountNum: Number(num) },
      key: { ECDSA_secp256k1: secp256k1.getPublicKey(privateKey, true) },
    });
    expect((parent.record.receipt as Pb).status).toBe(code('SUCCESS'));
    expect(client.net.ledger.account(num).key).toMatchObject({ kind: 'secp256k1', evmAddress: evm });
  });

  it('completes a hollow account whose signature a transfer paid by another needs, recorded as a CryptoUpdate child', async () => {
    const client = new NodeClient();
    const privateKey = secp256k1.utils.randomSecretKey();
    const evm = evmAddressOf(privateKey);
    await client.run(hbarTo(evm, 500_000_000));
    const num = client.net.ledger.entityOfAddress(evm) ?? 0n;
    const sends = {
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: { accountNum: String(num) }, amount: '-1000' },
            { accountID: { accountNum: '2' }, amount: '1000' },
          ],
        },
      },
    };
    expect((await client.run(sends)).status).toBe('INVALID_SIGNATURE');
    const { bytes } = client.sign(sends, [{ ecdsa: privateKey }]);
    expect(client.submit(bytes)).toBe('OK');
    await client.consensus.handleQueued(NOW_NS + 10_000_000n);
    const [child, parent] = client.net.drain();
    if (!child || !parent) throw new Error('expected a child and its parent');

    expect(child.consensusNs).toBe(parent.consensusNs - 1n);
    expect((child.body.transactionID as Pb).accountID).toMatchObject({ accountNum: '2' });
    expect(child.body.cryptoUpdateAccount).toMatchObject({
      accountIDToUpdate: { accountNum: Number(num) },
      key: { ECDSA_secp256k1: secp256k1.getPublicKey(privateKey, true) },
    });
    expect((parent.record.receipt as Pb).status).toBe(code('SUCCESS'));
    expect(client.net.ledger.account(num).key).toMatchObject({ kind: 'secp256k1', evmAddress: evm });
    expect(client.net.ledger.account(num).balance).toBe(500_000_000n - 1000n);
  });

  it("charges the payer a CryptoCreate's fee for each account a transfer creates, in the transfer's fee", async () => {
    const client = new NodeClient();
    const existing = await client.account();
    const plain = await client.run({
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: { accountNum: '2' }, amount: '-500' },
            { accountID: existing.id, amount: '500' },
          ],
        },
      },
    });
    const creating = await client.run(hbarTo(evmAddressOf(secp256k1.utils.randomSecretKey()), 500));

    const { hbarEquiv, centEquiv } = client.net.ledger.exchangeRate;
    const cryptoCreate = (500_000_000n * BigInt(hbarEquiv) + BigInt(centEquiv) - 1n) / BigInt(centEquiv);
    expect(BigInt(String(creating.record.transactionFee)) - BigInt(String(plain.record.transactionFee))).toBe(
      cryptoCreate,
    );
  });
});
