/**
 * The Construction API through the Worker, the way a Mesh client (and `check:construction`) walks it, with keys of
 * the official Hiero SDK: derive → preprocess → metadata → payloads → parse → sign → combine → parse → hash →
 * submit, for an hbar transfer and an account creation, with ED25519 and ECDSA secp256k1 keys where the reference
 * takes each. The SDK reads the unsigned and the signed bytes back, and a node (a recording CryptoService) receives
 * exactly the signed transaction.
 */
import { AccountCreateTransaction, AccountId, PrivateKey, Transaction, TransferTransaction } from '@hiero-ledger/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { HBAR_CURRENCY, hbarOperation, MESH_NETWORK, postMesh } from '../../../test/harness/mesh-document.ts';
import { type RecordingNode, startRecordingNode } from '../../../test/harness/recording-node.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const PAYER_KEY = PrivateKey.generateED25519();
const ALIASED_KEY = PrivateKey.generateED25519();
const PAYER = '0.0.1001';
const ALIASED_ACCOUNT = 1003n;

const { worker } = registerWorkerSuite({
  seed: (db) =>
    insertEntity(db.sql, ALIASED_ACCOUNT, 1n, {
      alias: Buffer.from(`1220${ALIASED_KEY.publicKey.toStringRaw()}`, 'hex'),
    }),
});

const post = (endpoint: string, body: Record<string, unknown>) =>
  postMesh(worker.baseUrl, `/construction${endpoint}`, { network_identifier: MESH_NETWORK, ...body });

let node: RecordingNode;

beforeAll(async () => {
  node = await startRecordingNode();
  await worker.setState({ config: { rosetta: { nodes: { [`127.0.0.1:${node.port}`]: '0.0.3' } } } });
});

afterAll(async () => {
  await worker.setState({});
  await node.stop();
});

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const fromHex = (text: string) => Uint8Array.from(Buffer.from(text.replace(/^0x/, ''), 'hex'));

/** The walk from preprocess to submit; answers each step's body, checking what every step must hold. */
async function walk(operations: object[], signers: readonly PrivateKey[]) {
  const preprocess = await post('/preprocess', { operations });
  expect(preprocess.status).toBe(200);
  const metadata = await post('/metadata', { options: preprocess.body.options });
  expect(metadata.status).toBe(200);
  expect(metadata.body.metadata.node_account_id).toBe('0.0.3');
  const payloads = await post('/payloads', { operations, metadata: metadata.body.metadata });
  expect(payloads.status).toBe(200);
  const unsigned = payloads.body.unsigned_transaction as string;
  const parsedUnsigned = await post('/parse', { signed: false, transaction: unsigned });
  expect(parsedUnsigned.status).toBe(200);
  expect(parsedUnsigned.body.account_identifier_signers).toBeUndefined();
  const signatures = (payloads.body.payloads as { hex_bytes: string; account_identifier: object }[]).map(
    (payload, i) => {
      const key = signers[i] as PrivateKey;
      return {
        signing_payload: payload,
        public_key: { hex_bytes: key.publicKey.toStringRaw(), curve_type: 'edwards25519' },
        signature_type: 'ed25519',
        hex_bytes: hexOf(key.sign(fromHex(payload.hex_bytes))),
      };
    },
  );
  const combined = await post('/combine', { unsigned_transaction: unsigned, signatures });
  expect(combined.status).toBe(200);
  const signed = combined.body.signed_transaction as string;
  const parsedSigned = await post('/parse', { signed: true, transaction: signed });
  expect(parsedSigned.status).toBe(200);
  expect(parsedSigned.body.operations).toEqual(parsedUnsigned.body.operations);
  const hash = await post('/hash', { signed_transaction: signed });
  expect(hash.status).toBe(200);
  const before = node.received.length;
  const submitted = await post('/submit', { signed_transaction: signed });
  expect(submitted.status).toBe(200);
  expect(submitted.body).toEqual(hash.body);
  expect(node.received).toHaveLength(before + 1);
  return {
    preprocess: preprocess.body,
    metadata: metadata.body,
    payloads: payloads.body,
    unsigned,
    parsedUnsigned: parsedUnsigned.body,
    signed,
    parsedSigned: parsedSigned.body,
    hash: hash.body.transaction_identifier.hash as string,
    received: node.received[before] as (typeof node.received)[number],
  };
}

/** The SDK reads both byte strings as one transaction; the signed one carries the signers' signatures. */
async function expectSameTransaction(unsigned: string, signed: string, signers: readonly PrivateKey[]) {
  const a = Transaction.fromBytes(fromHex(unsigned));
  const b = Transaction.fromBytes(fromHex(signed));
  expect(b.constructor).toBe(a.constructor);
  expect(b.transactionId?.toString()).toBe(a.transactionId?.toString());
  expect(b.nodeAccountIds?.map(String)).toEqual(a.nodeAccountIds?.map(String));
  expect(b.maxTransactionFee?.toTinybars().toString()).toBe(a.maxTransactionFee?.toTinybars().toString());
  expect(b.transactionMemo).toBe(a.transactionMemo);
  expect(b.transactionValidDuration).toBe(a.transactionValidDuration);
  const signatures = b.getSignatures();
  const signedBy = signatures.getFlatSignatureList().flatMap((pairs) => [...pairs.keys()].map((k) => k.toStringRaw()));
  expect(signedBy).toEqual(signers.map((key) => key.publicKey.toStringRaw()));
  return { unsigned: a, signed: b };
}

describe('an hbar transfer', () => {
  it('goes from operations to a node with an ED25519 payer, and the SDK agrees at every step', async () => {
    const operations = [
      hbarOperation(0, 'CRYPTOTRANSFER', PAYER, -25_000n),
      hbarOperation(1, 'CRYPTOTRANSFER', '0.0.1002', 25_000n),
    ];
    const result = await walk(operations, [PAYER_KEY]);
    expect(result.preprocess).toEqual({
      options: { operation_type: 'CRYPTOTRANSFER' },
      required_public_keys: [{ address: PAYER }],
    });
    expect(result.metadata.suggested_fee).toEqual([{ value: '100000000', currency: HBAR_CURRENCY }]);
    expect(result.payloads.payloads).toEqual([
      {
        address: PAYER,
        hex_bytes: expect.stringMatching(/^[0-9a-f]+$/),
        account_identifier: { address: PAYER },
        signature_type: 'ed25519',
      },
    ]);
    expect(result.parsedUnsigned.operations).toEqual(operations);
    expect(result.parsedSigned.account_identifier_signers).toEqual([{ address: PAYER }]);
    expect(result.parsedSigned.signers).toEqual([PAYER]);
    const { unsigned, signed } = await expectSameTransaction(result.unsigned, result.signed, [PAYER_KEY]);
    expect(unsigned).toBeInstanceOf(TransferTransaction);
    const transfers = (signed as TransferTransaction).hbarTransfers;
    expect(transfers.get(AccountId.fromString(PAYER))?.toTinybars().toString()).toBe('-25000');
    expect(transfers.get(AccountId.fromString('0.0.1002'))?.toTinybars().toString()).toBe('25000');
    expect(signed.transactionId?.accountId?.toString()).toBe(PAYER);
    expect(signed.nodeAccountIds?.map(String)).toEqual(['0.0.3']);
    expect(signed.maxTransactionFee?.toTinybars().toString()).toBe('100000000');
    expect(result.hash).toBe(`0x${hexOf(await signed.getTransactionHash())}`);
    // The node received the signed transaction itself: the SDK's Transaction of its one signed transaction.
    expect(result.received.method).toBe('cryptoTransfer');
    const sent = Transaction.fromBytes(result.received.transaction);
    expect(`0x${hexOf(await sent.getTransactionHash())}`).toBe(result.hash);
  });

  it('is paid by an account named by its key alias, found in the mirror by metadata', async () => {
    const alias = `0x1220${ALIASED_KEY.publicKey.toStringRaw()}`;
    const operations = [hbarOperation(0, 'CRYPTOTRANSFER', alias, -7n), hbarOperation(1, 'CRYPTOTRANSFER', PAYER, 7n)];
    const result = await walk(operations, [ALIASED_KEY]);
    expect(result.preprocess.options).toEqual({ account_aliases: alias, operation_type: 'CRYPTOTRANSFER' });
    expect(result.metadata.metadata.account_map).toBe(`${alias}:0.0.${ALIASED_ACCOUNT}`);
    expect(result.parsedUnsigned.operations).toEqual(operations);
    const { signed } = await expectSameTransaction(result.unsigned, result.signed, [ALIASED_KEY]);
    expect(signed.transactionId?.accountId?.toString()).toBe(`0.0.${ALIASED_ACCOUNT}`);
    expect(result.hash).toBe(`0x${hexOf(await signed.getTransactionHash())}`);
  });

  it('moves hbar to an ECDSA secp256k1 key alias, which the transaction names by its key', async () => {
    const key = PrivateKey.generateECDSA();
    const alias = `0x3a21${key.publicKey.toStringRaw()}`;
    const operations = [hbarOperation(0, 'CRYPTOTRANSFER', PAYER, -5n), hbarOperation(1, 'CRYPTOTRANSFER', alias, 5n)];
    const result = await walk(operations, [PAYER_KEY]);
    expect(result.parsedSigned.operations).toEqual(operations);
    const { signed } = await expectSameTransaction(result.unsigned, result.signed, [PAYER_KEY]);
    const receiver = [...(signed as TransferTransaction).hbarTransfers.keys()].find((id) => id.aliasKey);
    expect(receiver?.aliasKey?.toStringRaw()).toBe(key.publicKey.toStringRaw());
  });
});

describe('an account creation', () => {
  it.each([
    ['ED25519', () => PrivateKey.generateED25519(), '302a300506032b6570032100'],
    ['ECDSA secp256k1', () => PrivateKey.generateECDSA(), '3036301006072a8648ce3d020106052b8104000a032200'],
  ])('creates an account with an %s key, paid and signed by an ED25519 payer', async (_, generate, derPrefix) => {
    const key = generate();
    const operations = [
      hbarOperation(0, 'CRYPTOCREATEACCOUNT', PAYER, -500n, { key: key.publicKey.toStringDer(), memo: 'new' }),
    ];
    const result = await walk(operations, [PAYER_KEY]);
    expect(result.metadata.suggested_fee).toEqual([{ value: '500000000', currency: HBAR_CURRENCY }]);
    expect(result.parsedSigned.operations).toEqual([
      {
        ...operations[0],
        metadata: { auto_renew_period: 7890000, key: `${derPrefix}${key.publicKey.toStringRaw()}`, memo: 'new' },
      },
    ]);
    expect(result.parsedSigned.account_identifier_signers).toEqual([{ address: PAYER }]);
    const { signed } = await expectSameTransaction(result.unsigned, result.signed, [PAYER_KEY]);
    expect(signed).toBeInstanceOf(AccountCreateTransaction);
    const create = signed as AccountCreateTransaction;
    expect(create.key?.toString()).toBe(key.publicKey.toString());
    expect(create.initialBalance?.toTinybars().toString()).toBe('500');
    expect(create.accountMemo).toBe('new');
    expect(create.autoRenewPeriod.seconds.toString()).toBe('7890000');
    expect(result.hash).toBe(`0x${hexOf(await signed.getTransactionHash())}`);
    expect(result.received.method).toBe('createAccount');
  });
});

describe('/construction/derive', () => {
  it('derives the key alias address of an ED25519 key, and refuses an ECDSA key as the reference does', async () => {
    const key = PrivateKey.generateED25519().publicKey;
    const address = `0x1220${key.toStringRaw()}`;
    expect(
      (await post('/derive', { public_key: { hex_bytes: key.toStringRaw(), curve_type: 'edwards25519' } })).body,
    ).toEqual({ address, account_identifier: { address } });
    const der = await post('/derive', { public_key: { hex_bytes: key.toStringDer(), curve_type: 'edwards25519' } });
    expect(der.body.address).toBe(address);
    const ecdsa = PrivateKey.generateECDSA().publicKey.toStringRaw();
    for (const curve_type of ['secp256k1', 'edwards25519']) {
      const refused = await post('/derive', { public_key: { hex_bytes: ecdsa, curve_type } });
      expect(refused.status).toBe(500);
      expect(refused.body).toEqual({ code: 106, message: 'Invalid Public Key provided', retriable: false });
    }
  });
});
