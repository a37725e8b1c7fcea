/**
 * What the Construction API answers to what it cannot build, read or send, through the Worker: the Mesh SDK's
 * refusals (code 0, Go's words) and the reference's errors, each answer held to the Mesh document.
 */
import { AccountId, PrivateKey, Timestamp, TokenCreateTransaction, TransactionId } from '@hiero-ledger/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  insertAddressBook,
  insertAddressBookEntry,
  insertServiceEndpoint,
} from '../../../test/harness/factories-network.ts';
import { HBAR_CURRENCY, MESH_NETWORK, postMesh } from '../../../test/harness/mesh-document.ts';
import { type RecordingNode, startRecordingNode } from '../../../test/harness/recording-node.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const BOOK = 1_700_000_000_000_000_000n;
let node: RecordingNode;

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    node = await startRecordingNode();
    await insertAddressBook(db.sql, { start_consensus_timestamp: BOOK, file_id: 102n, node_count: 2 });
    for (const nodeId of [0n, 1n]) {
      await insertAddressBookEntry(db.sql, { consensus_timestamp: BOOK, node_id: nodeId });
      await insertServiceEndpoint(db.sql, {
        consensus_timestamp: BOOK,
        node_id: nodeId,
        ip_address_v4: '127.0.0.1',
        port: node.port,
      });
    }
  },
});

afterAll(() => node.stop());
afterEach(async () => {
  node.precheckCode = 0;
  await worker.setState({});
});

const KEY = PrivateKey.generateED25519();
const post = (endpoint: string, body: Record<string, unknown> | string) =>
  postMesh(
    worker.baseUrl,
    `/construction${endpoint}`,
    typeof body === 'string' ? body : { network_identifier: MESH_NETWORK, ...body },
  );

const error = (code: number, message: string, retriable = false) => ({ code, message, retriable });
const refusal = (message: string) => ({ code: 0, message, retriable: false });

const transfer = (index: number, address: string, value: string, currency: object = HBAR_CURRENCY) => ({
  operation_identifier: { index },
  type: 'CRYPTOTRANSFER',
  account: { address },
  amount: { value, currency },
});
const pair = [transfer(0, '0.0.1001', '-10'), transfer(1, '0.0.1002', '10')];
const METADATA = { node_account_id: '0.0.3', valid_start_nanos: '1700000000000000000' };

async function expectAnswer(endpoint: string, body: Record<string, unknown> | string, expected: object) {
  const answer = await post(endpoint, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(500);
  expect(answer.body).toEqual(expected);
}

/** An unsigned transfer from 0.0.1001 through node 0.0.3, and its signing payload. */
async function unsignedTransfer(metadata: object = METADATA) {
  const { body } = await post('/payloads', { operations: pair, metadata });
  return { unsigned: body.unsigned_transaction as string, payload: body.payloads[0] };
}

const signatureOf = (payload: { hex_bytes: string }, key = KEY, type = 'ed25519', curve = 'edwards25519') => ({
  signing_payload: payload,
  public_key: { hex_bytes: key.publicKey.toStringRaw(), curve_type: curve },
  signature_type: type,
  hex_bytes: Buffer.from(key.sign(Buffer.from(payload.hex_bytes, 'hex'))).toString('hex'),
});

async function signedTransfer(metadata: object = METADATA) {
  const { unsigned, payload } = await unsignedTransfer(metadata);
  const { body } = await post('/combine', { unsigned_transaction: unsigned, signatures: [signatureOf(payload)] });
  return body.signed_transaction as string;
}

describe('requests the Mesh SDK refuses', () => {
  it('refuses an unknown network and a body that is not the request', async () => {
    const mainnet = { blockchain: 'Hedera', network: 'mainnet' };
    await expectAnswer(
      '/hash',
      { network_identifier: mainnet, signed_transaction: '0x00' },
      refusal(
        'network identifier {"blockchain":"Hedera","network":"mainnet"} is not supported: requestNetwork is not supported',
      ),
    );
    await expectAnswer('/derive', '{"network_identifier":', refusal('unexpected EOF'));
    await expectAnswer('/derive', 'null', refusal('ConstructionDeriveRequest is nil'));
    await expectAnswer(
      '/parse',
      { signed: 'yes', transaction: '0x00' },
      refusal('json: cannot unmarshal string into Go struct field ConstructionParseRequest.signed of type bool'),
    );
  });

  it("refuses public keys the SDK cannot read, in the SDK's words", async () => {
    await expectAnswer(
      '/derive',
      { public_key: { hex_bytes: '0xab', curve_type: 'edwards25519' } },
      refusal("encoding/hex: invalid byte: U+0078 'x'"),
    );
    await expectAnswer(
      '/derive',
      { public_key: { hex_bytes: 7, curve_type: 'edwards25519' } },
      refusal(
        'json: cannot unmarshal number into Go struct field ConstructionDeriveRequest.public_key.hex_bytes of type string',
      ),
    );
    await expectAnswer(
      '/derive',
      { public_key: { hex_bytes: '0000', curve_type: 'edwards25519' } },
      refusal('public key {"hex_bytes":"0000","curve_type":"edwards25519"} is invalid: public key bytes 0'),
    );
    await expectAnswer(
      '/derive',
      { public_key: { hex_bytes: 'ab', curve_type: 'ed' } },
      refusal(
        'public key {"hex_bytes":"ab","curve_type":"ed"} is invalid: public key curve type "ed" is invalid: not a supported CurveType',
      ),
    );
  });

  it('refuses operations that are empty, out of order, of a type it does not know or with a status', async () => {
    await expectAnswer(
      '/preprocess',
      { operations: [] },
      refusal('operations [] are invalid: operations cannot be empty for construction'),
    );
    const second = { ...transfer(1, '0.0.1001', '-1'), operation_identifier: { index: 2 } };
    await expectAnswer(
      '/preprocess',
      { operations: [pair[0], second] },
      refusal(
        `operations ${JSON.stringify([pair[0], second])} are invalid: operation ${JSON.stringify(second)} is invalid: operation identifier {"index":2} is invalid in operation 1: expected identifier index 1 but got 2: Operation.OperationIdentifier.Index is out of order`,
      ),
    );
    const fee = { ...pair[0], type: 'FEE' };
    await expectAnswer(
      '/payloads',
      { operations: [fee] },
      refusal(
        `operations [${JSON.stringify(fee)}] are invalid: operation ${JSON.stringify(fee)} is invalid: operation type "FEE" is invalid in operation 0: operation type FEE is invalid: Operation.Type is invalid`,
      ),
    );
    const withStatus = { operation_identifier: { index: 0 }, type: 'CRYPTOTRANSFER', status: 'SUCCESS' };
    await expectAnswer(
      '/preprocess',
      { operations: [withStatus] },
      refusal(
        `operations [${JSON.stringify(withStatus)}] are invalid: operation ${JSON.stringify(withStatus)} is invalid: operation status "SUCCESS" is invalid in operation 0: Operation.Status must be empty for construction`,
      ),
    );
  });

  it('refuses a combine without signatures or without the unsigned transaction', async () => {
    await expectAnswer(
      '/combine',
      { unsigned_transaction: '0x00', signatures: [] },
      refusal('signatures [] are invalid: signatures cannot be empty'),
    );
    await expectAnswer(
      '/combine',
      { unsigned_transaction: '', signatures: [] },
      refusal('UnsignedTransaction cannot be empty'),
    );
    await expectAnswer(
      '/submit',
      { signed_transaction: '' },
      refusal('ConstructionSubmitRequest.SignedTransaction is empty'),
    );
  });
});

describe('operations the reference cannot build', () => {
  it.each([
    [
      'amounts that do not sum to zero',
      [transfer(0, '0.0.1001', '-10'), transfer(1, '0.0.1002', '9')],
      error(105, 'Operations total amount must be 0'),
    ],
    ['a zero amount', [transfer(0, '0.0.1001', '0')], error(104, 'Invalid Operations amount provided')],
    [
      'an amount beyond int64',
      [transfer(0, '0.0.1001', '9223372036854775808')],
      error(104, 'Invalid Operations amount provided'),
    ],
    [
      'another currency',
      [transfer(0, '0.0.1001', '-1', { symbol: 'HBAR', decimals: 9 })],
      error(134, 'Invalid currency'),
    ],
    ['an account that is not one', [transfer(0, 'alice', '-1')], error(102, 'Invalid Account provided')],
    [
      'two operation types',
      [pair[0], { ...pair[1], type: 'CRYPTOCREATEACCOUNT' }],
      error(109, 'Only one Operation Type must be present'),
    ],
    [
      'a type the reference does not build',
      [{ ...pair[0], type: 'TOKENMINT' }],
      error(127, 'Operation type unsupported'),
    ],
  ])('answers %s with its error, at preprocess and at payloads', async (_, operations, expected) => {
    await expectAnswer('/preprocess', { operations }, expected);
    await expectAnswer('/payloads', { operations, metadata: METADATA }, expected);
  });

  it('wants one account creation of a non-positive amount with a readable key', async () => {
    const create = (value: string, metadata: object) => ({
      operation_identifier: { index: 0 },
      type: 'CRYPTOCREATEACCOUNT',
      account: { address: '0.0.1001' },
      amount: { value, currency: HBAR_CURRENCY },
      metadata,
    });
    const key = KEY.publicKey.toStringRaw();
    await expectAnswer('/preprocess', { operations: [create('-1', {})] }, error(126, 'Invalid operation metadata'));
    await expectAnswer(
      '/preprocess',
      { operations: [create('-1', { key: `0x${key}` })] },
      error(126, 'Invalid operation metadata'),
    );
    await expectAnswer(
      '/preprocess',
      { operations: [create('-1', { key, auto_renew_period: 1.5 })] },
      error(126, 'Invalid operation metadata'),
    );
    await expectAnswer(
      '/preprocess',
      { operations: [create('1', { key })] },
      error(104, 'Invalid Operations amount provided'),
    );
    const two = [create('-1', { key }), { ...create('-1', { key }), operation_identifier: { index: 1 } }];
    await expectAnswer('/preprocess', { operations: two }, error(130, 'Invalid operations'));
  });
});

describe('/construction/metadata and /payloads', () => {
  it('wants options with a type it builds, and names a node of the address book at random', async () => {
    await expectAnswer('/metadata', {}, error(138, 'Invalid options'));
    await expectAnswer('/metadata', { options: { operation_type: 5 } }, error(138, 'Invalid options'));
    await expectAnswer('/metadata', { options: { operation_type: 'TOKENMINT' } }, error(128, 'Invalid operation type'));
    const alias = `0x1220${KEY.publicKey.toStringRaw()}`;
    const unknown = { operation_type: 'CRYPTOTRANSFER', account_aliases: alias };
    await expectAnswer('/metadata', { options: unknown }, error(100, 'Account not found', true));
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { body } = await post('/metadata', { options: { operation_type: 'CRYPTOTRANSFER' } });
      seen.add(body.metadata.node_account_id);
      expect(BigInt(body.metadata.valid_until_nanos)).toBeGreaterThan(BigInt(Date.now()) * 1_000_000n);
    }
    expect([...seen].sort()).toEqual(['0.0.3', '0.0.4']);
  });

  it('answers 140 when it knows no node, and 136 for an alias to resolve offline', async () => {
    await worker.setState({ config: { rosetta: { online: false } } });
    await expectAnswer(
      '/metadata',
      { options: { operation_type: 'CRYPTOTRANSFER' } },
      error(140, 'Node account IDs are empty', true),
    );
    const options = { operation_type: 'CRYPTOTRANSFER', account_aliases: `0x1220${KEY.publicKey.toStringRaw()}` };
    await expectAnswer('/metadata', { options }, error(136, 'Endpoint not supported in offline mode'));
  });

  it.each([
    ['no node account', { valid_start_nanos: '1' }, error(141, 'Missing node_account_id metadata')],
    ['a node account that is not a string', { node_account_id: 3 }, error(124, 'Invalid argument')],
    ['a node account that is not one', { node_account_id: '3' }, error(102, 'Invalid Account provided')],
    ['a valid duration past 180 s', { ...METADATA, valid_duration: '181' }, error(124, 'Invalid argument')],
    ['a valid start that is a number', { ...METADATA, valid_start_nanos: 5 }, error(124, 'Invalid argument')],
    [
      'a valid until before 180 s past the epoch',
      { node_account_id: '0.0.3', valid_until_nanos: '1' },
      error(124, 'Invalid argument'),
    ],
    ['a memo that is not a string', { ...METADATA, memo: 1 }, error(139, 'Invalid transaction memo')],
  ])('refuses payloads with %s', async (_, metadata, expected) => {
    await expectAnswer('/payloads', { operations: pair, metadata }, expected);
  });

  it('wants the account map of a payer named by alias', async () => {
    const alias = `0x1220${KEY.publicKey.toStringRaw()}`;
    const operations = [transfer(0, alias, '-1'), transfer(1, '0.0.1002', '1')];
    await expectAnswer('/payloads', { operations, metadata: METADATA }, error(100, 'Account not found', true));
    const mapped = { ...METADATA, account_map: `${alias}:0.0.1005` };
    expect((await post('/payloads', { operations, metadata: mapped })).status).toBe(200);
  });
});

describe('transactions the reference cannot read, combine or send', () => {
  it('answers bytes that are not hex, not a transaction, or not a transaction it builds', async () => {
    await expectAnswer('/parse', { signed: false, transaction: '0xzz' }, error(115, 'Transaction Decode failed'));
    await expectAnswer('/hash', { signed_transaction: '0xdeadbeef' }, error(117, 'Transaction unmarshalling failed'));
    const token = new TokenCreateTransaction()
      .setTokenName('t')
      .setTokenSymbol('T')
      .setTransactionId(TransactionId.withValidStart(AccountId.fromString('0.0.1001'), Timestamp.fromDate(new Date())))
      .setNodeAccountIds([AccountId.fromString('0.0.3')])
      .freeze();
    const hex = `0x${Buffer.from(token.toBytes()).toString('hex')}`;
    await expectAnswer('/parse', { signed: false, transaction: hex }, error(121, 'Transaction invalid type'));
    await expectAnswer('/submit', { signed_transaction: hex }, error(121, 'Transaction invalid type'));
  });

  it('refuses a signature that does not verify, of another type, or of an ECDSA key', async () => {
    const { unsigned, payload } = await unsignedTransfer();
    const other = signatureOf({ ...payload, hex_bytes: `${payload.hex_bytes}00` });
    await expectAnswer(
      '/combine',
      { unsigned_transaction: unsigned, signatures: [{ ...other, signing_payload: payload }] },
      error(107, 'Invalid signature verification'),
    );
    const ecdsa = PrivateKey.generateECDSA();
    const signed = signatureOf({ ...payload, signature_type: 'ecdsa' }, ecdsa, 'ecdsa', 'secp256k1');
    await expectAnswer(
      '/combine',
      { unsigned_transaction: unsigned, signatures: [signed] },
      error(135, 'Unsupported signature type'),
    );
    const mislabeled = {
      ...signed,
      signing_payload: { ...payload, signature_type: 'ed25519' },
      signature_type: 'ed25519',
    };
    await expectAnswer(
      '/combine',
      { unsigned_transaction: unsigned, signatures: [mislabeled] },
      error(106, 'Invalid Public Key provided'),
    );
  });

  it("sends to the node the transaction names, through the address book's endpoints", async () => {
    const signed = await signedTransfer();
    const before = node.received.length;
    const answer = await post('/submit', { signed_transaction: signed });
    expect(answer.status).toBe(200);
    expect(node.received).toHaveLength(before + 1);
  });

  it("answers a node's refusal with the SDK's words for it", async () => {
    node.precheckCode = 10;
    await expectAnswer(
      '/submit',
      { signed_transaction: await signedTransfer() },
      {
        ...error(118, 'Transaction submission failed'),
        details: {
          reason:
            'exceptional precheck status INSUFFICIENT_PAYER_BALANCE received for transaction 0.0.1001@1700000000.000000000',
        },
      },
    );
    node.precheckCode = 12;
    await expectAnswer(
      '/submit',
      { signed_transaction: await signedTransfer() },
      {
        ...error(118, 'Transaction submission failed'),
        details: {
          reason: 'retry 1/1: exceptional precheck status BUSY received for transaction 0.0.1001@1700000000.000000000',
        },
      },
    );
  });

  it("answers a node it cannot reach, or does not know, as the reference's SDK does", async () => {
    const closed = 18_799;
    await worker.setState({ config: { rosetta: { nodes: { [`127.0.0.1:${closed}`]: '0.0.3' } } } });
    await expectAnswer(
      '/submit',
      { signed_transaction: await signedTransfer() },
      {
        ...error(118, 'Transaction submission failed'),
        details: {
          reason: `retry 1/1: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:${closed}: connect: connection refused"`,
        },
      },
    );
    const elsewhere = await signedTransfer({ ...METADATA, node_account_id: '0.0.9' });
    await expectAnswer(
      '/submit',
      { signed_transaction: elsewhere },
      {
        ...error(118, 'Transaction submission failed'),
        details: { reason: 'Invalid node AccountID was set for transaction: 0.0.9' },
      },
    );
  });

  it('does not submit offline, and answers preprocess_operations as not implemented', async () => {
    const signed = await signedTransfer();
    await worker.setState({ config: { rosetta: { online: false } } });
    await expectAnswer('/submit', { signed_transaction: signed }, error(136, 'Endpoint not supported in offline mode'));
    await expectAnswer('/preprocess_operations', { construct_op: 'transfer' }, error(111, 'Not implemented'));
  });
});
