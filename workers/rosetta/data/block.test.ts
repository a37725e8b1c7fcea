import { afterEach, describe, expect, it } from 'vitest';
import {
  ALIAS,
  fileHash,
  fileStart,
  GENESIS_SNAPSHOT,
  HASHES,
  hashText,
  seedRosettaLedger,
} from '../../../test/harness/factories-rosetta.ts';
import { HBAR_CURRENCY, MESH_NETWORK, postMesh } from '../../../test/harness/mesh-document.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const { worker } = registerWorkerSuite({ seed: (db) => seedRosettaLedger(db.sql) });

const post = (endpoint: string, body: object, headers?: Record<string, string>) =>
  postMesh(worker.baseUrl, endpoint, { network_identifier: MESH_NETWORK, ...body }, headers);
const block = (block_identifier: object) => post('/block', { block_identifier });
const identifier = (index: number) => ({ index, hash: `0x${fileHash(index)}` });
const hbar = (value: number) => ({
  value: String(value),
  currency: HBAR_CURRENCY,
});
const op = (index: number, type: string, status: string, address: string, value: number) => ({
  operation_identifier: { index },
  type,
  status,
  account: { address },
  amount: hbar(value),
});

afterEach(() => worker.setState({}));

describe('/rosetta/block', () => {
  it("answers the genesis block, the first file ending after the treasury's first snapshot, as its own parent", async () => {
    const { status, body } = await block({ index: 1 });
    expect(status).toBe(200);
    expect(body.block.block_identifier).toEqual(identifier(1));
    expect(body.block.parent_block_identifier).toEqual(identifier(1));
    // it starts just after the snapshot: the transaction before it is in no block
    expect(body.block.timestamp).toBe(Number((GENESIS_SNAPSHOT + 1n) / 1_000_000n));
    expect(body.block.transactions.map((t: { transaction_identifier: unknown }) => t.transaction_identifier)).toEqual([
      { hash: hashText(HASHES.transfer) },
    ]);
  });

  it('shows the transfers a body asked for with its type and status, and the rest of what each account paid as FEE', async () => {
    const [transfer] = (await block({ index: 1 })).body.block.transactions;
    expect(transfer).toEqual({
      transaction_identifier: { hash: hashText(HASHES.transfer) },
      operations: [
        op(0, 'CRYPTOTRANSFER', 'SUCCESS', '0.0.1001', -50),
        op(1, 'CRYPTOTRANSFER', 'SUCCESS', `0x${ALIAS}`, 50),
        op(2, 'FEE', 'SUCCESS', '0.0.3', 2),
        op(3, 'FEE', 'SUCCESS', '0.0.98', 8),
        op(4, 'FEE', 'SUCCESS', '0.0.1001', -10),
      ],
      metadata: { memo: 'rent <march>' },
    });
  });

  it('shows a failed transaction by its fees and a 0-amount operation of its payer, and staking rewards as transfers', async () => {
    const { body } = await block({ index: 2 });
    expect(body.block.parent_block_identifier).toEqual(identifier(1));
    expect(body.block.timestamp).toBe(Number(fileStart(2) / 1_000_000n));
    const [failed, reward] = body.block.transactions;
    expect(failed.operations).toEqual([
      op(0, 'FEE', 'SUCCESS', '0.0.3', 1),
      op(1, 'FEE', 'SUCCESS', '0.0.98', 4),
      op(2, 'FEE', 'SUCCESS', '0.0.1001', -5),
      op(3, 'CRYPTOTRANSFER', 'INSUFFICIENT_PAYER_BALANCE', '0.0.1001', 0),
    ]);
    expect(failed.metadata).toBeUndefined();
    expect(reward).toEqual({
      transaction_identifier: { hash: hashText(HASHES.reward) },
      operations: [
        op(0, 'FEE', 'SUCCESS', '0.0.3', 1),
        op(1, 'FEE', 'SUCCESS', '0.0.98', 2),
        op(2, 'FEE', 'SUCCESS', '0.0.1001', -3),
        op(3, 'CRYPTOTRANSFER', 'SUCCESS', '0.0.1001', 7),
        op(4, 'CRYPTOTRANSFER', 'SUCCESS', '0.0.800', -7),
      ],
      metadata: { entity_id: '0.0.1001' },
    });
  });

  it('makes one transaction of two records with the same hash, its entity that of the successful one', async () => {
    const [duplicate] = (await block({ index: 3 })).body.block.transactions;
    expect(duplicate).toEqual({
      transaction_identifier: { hash: hashText(HASHES.duplicate) },
      operations: [
        op(0, 'FEE', 'SUCCESS', '0.0.3', 3),
        op(1, 'FEE', 'SUCCESS', '0.0.1001', -3),
        op(2, 'FEE', 'SUCCESS', '0.0.3', 1),
        op(3, 'FEE', 'SUCCESS', '0.0.1001', -1),
      ],
      metadata: { entity_id: '0.0.1004' },
    });
  });

  it('answers the same block by index, by hash with or without 0x, and by both', async () => {
    const byIndex = await block({ index: 2 });
    for (const by of [{ hash: `0x${fileHash(2)}` }, { hash: fileHash(2) }, identifier(2)]) {
      expect((await block(by)).text, JSON.stringify(by)).toBe(byIndex.text);
    }
  });

  it('answers the latest block without an identifier, cached briefly; a block below the tip is cached for good', async () => {
    const latest = await block({});
    expect(latest.body.block.block_identifier).toEqual(identifier(5));
    expect(latest.body.block.transactions).toEqual([]);
    expect(latest.headers.get('cache-control')).toBe('public, max-age=1');
    expect((await block({ index: 5 })).headers.get('cache-control')).toBe('public, max-age=1');
    expect((await block({ index: 4 })).headers.get('cache-control')).toBe('public, max-age=31536000');
  });

  it('answers a block it has answered from the edge cache, without the database', async () => {
    await block({ index: 3 });
    const before = worker.dbQueries;
    const again = await postMesh(
      worker.baseUrl,
      '/block',
      `{"block_identifier":{"index":3},"network_identifier":${JSON.stringify(MESH_NETWORK)}}`,
    );
    expect(again.status).toBe(200);
    expect(worker.dbQueries).toBe(before);
  });

  it.each([
    ['a block before genesis', { index: 0 }, 101],
    ['a block past the tip', { index: 6 }, 101],
    ['an unknown hash', { hash: `0x${'ee'.repeat(48)}` }, 101],
    ['an uppercase hash', { hash: `0x${fileHash(2).toUpperCase()}` }, 101],
    ['a hash of another index', { index: 3, hash: `0x${fileHash(2)}` }, 101],
    ['an empty hash after 0x', { hash: '0x' }, 124],
  ])('answers %s with the reference error', async (_name, identifierOf, code) => {
    const answer = await block(identifierOf);
    expect(answer.status).toBe(500);
    expect(answer.body.code).toBe(code);
  });

  it("names the block's transactions past maxTransactionsInBlock by hash only", async () => {
    await worker.setState({ config: { rosetta: { response: { maxTransactionsInBlock: 1 } } } });
    const { body } = await block({ index: 2 });
    expect(body.block.transactions.map((t: { transaction_identifier: unknown }) => t.transaction_identifier)).toEqual([
      { hash: hashText(HASHES.failed) },
    ]);
    expect(body.other_transactions).toEqual([{ hash: hashText(HASHES.reward) }]);
  });
});

describe('/rosetta/block/transaction', () => {
  it('answers a transaction of a block as /block lists it', async () => {
    const [, reward] = (await block({ index: 2 })).body.block.transactions;
    const answer = await post('/block/transaction', {
      block_identifier: identifier(2),
      transaction_identifier: { hash: hashText(HASHES.reward) },
    });
    expect(answer.body).toEqual({ transaction: reward });
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000');
  });

  it.each([
    ['a hash no transaction of the block has', identifier(2), hashText(HASHES.transfer), 119],
    ['a hash that is not hex', identifier(2), '0xzz', 108],
    ['a block whose hash and index disagree', { index: 1, hash: `0x${fileHash(2)}` }, hashText(HASHES.reward), 101],
  ])('answers %s with the reference error', async (_name, blockIdentifier, hash, code) => {
    const answer = await post('/block/transaction', {
      block_identifier: blockIdentifier,
      transaction_identifier: { hash },
    });
    expect([answer.status, answer.body.code]).toEqual([500, code]);
  });

  it('wants a whole block identifier', async () => {
    const answer = await post('/block/transaction', {
      block_identifier: { index: 2 },
      transaction_identifier: { hash: hashText(HASHES.reward) },
    });
    expect(answer.body).toEqual({
      code: 0,
      message: 'block identifier {"index":2,"hash":""} is invalid: BlockIdentifier.Hash is missing',
      retriable: false,
    });
  });
});

describe('/rosetta/network/status', () => {
  it('names the genesis block, the latest block and its time, and the nodes of the latest address book', async () => {
    const { body, headers } = await post('/network/status', {});
    expect(body).toEqual({
      current_block_identifier: identifier(5),
      current_block_timestamp: Number(fileStart(5) / 1_000_000n),
      genesis_block_identifier: identifier(1),
      peers: [
        { peer_id: '0', metadata: { account_id: '0.0.3', endpoints: ['10.0.0.1:50211'] } },
        { peer_id: '1', metadata: { account_id: '0.0.4', endpoints: ['10.0.0.2:50211'] } },
      ],
    });
    expect(headers.get('cache-control')).toBe('public, max-age=1');
  });

  it('is not served offline, and the data endpoints are not there', async () => {
    await worker.setState({ config: { rosetta: { online: false } } });
    const status = await post('/network/status', {});
    expect(status.body).toEqual({ code: 136, message: 'Endpoint not supported in offline mode', retriable: false });
    const offline = await fetch(`${worker.baseUrl}/rosetta/block`, { method: 'POST', body: '{}' });
    expect([offline.status, await offline.text()]).toEqual([404, '404 page not found\n']);
    expect((await post('/network/list', {})).status).toBe(200);
  });
});

describe('/rosetta/mempool', () => {
  it('is not implemented by a mirror, after the request checks', async () => {
    const notImplemented = { code: 111, message: 'Not implemented', retriable: false };
    expect((await post('/mempool', {})).body).toEqual(notImplemented);
    expect((await post('/mempool/transaction', { transaction_identifier: { hash: '0x01' } })).body).toEqual(
      notImplemented,
    );
    expect((await post('/mempool/transaction', {})).body).toEqual({
      code: 0,
      message: 'TransactionIdentifier is nil',
      retriable: false,
    });
  });
});
