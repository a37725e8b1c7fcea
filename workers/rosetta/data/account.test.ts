import { describe, expect, it } from 'vitest';
import { insertRecordFile } from '../../../test/harness/factories-blocks.ts';
import { ALIAS, ALICE, DELETED, FILES, fileHash, seedRosettaLedger } from '../../../test/harness/factories-rosetta.ts';
import { HBAR_CURRENCY, MESH_NETWORK, postMesh } from '../../../test/harness/mesh-document.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const identifier = (index: number) => ({ index, hash: `0x${fileHash(index)}` });
const LATEST = FILES - 1;

describe('/rosetta/account/balance', () => {
  const { worker } = registerWorkerSuite({ seed: (db) => seedRosettaLedger(db.sql) });
  const post = (endpoint: string, body: object) =>
    postMesh(worker.baseUrl, endpoint, { network_identifier: MESH_NETWORK, ...body });
  const balance = (address: string, block_identifier?: object) =>
    post('/account/balance', { account_identifier: { address }, ...(block_identifier ? { block_identifier } : {}) });
  const hbarOf = async (address: string, block?: object) => (await balance(address, block)).body.balances[0].value;

  it("answers the latest balance: the genesis snapshot's plus every transfer since", async () => {
    const { body, headers } = await balance(`0.0.${ALICE}`);
    expect(body).toEqual({
      block_identifier: identifier(LATEST),
      balances: [{ value: '473', currency: HBAR_CURRENCY }],
    });
    expect(headers.get('cache-control')).toBe('public, max-age=1');
  });

  it('answers the balance at the end of an earlier block, by index or by hash, cached for good', async () => {
    expect(await hbarOf(`0.0.${ALICE}`, { index: 1 })).toBe('440');
    expect(await hbarOf(`0.0.${ALICE}`, { hash: `0x${fileHash(2)}` })).toBe('439');
    expect((await balance(`0.0.${ALICE}`, { index: 2 })).headers.get('cache-control')).toBe('public, max-age=31536000');
  });

  it('names an account by its key alias, with its id and ED25519 public key', async () => {
    const { body } = await balance(`0x${ALIAS}`, { index: 1 });
    expect(body).toEqual({
      block_identifier: identifier(1),
      balances: [{ value: '350', currency: HBAR_CURRENCY }],
      metadata: { account_id: '0.0.1002', public_key: `0x${ALIAS}` },
    });
  });

  it('keeps the balance a deleted account had when it was deleted', async () => {
    expect(await hbarOf(`0.0.${DELETED}`, { index: 2 })).toBe('40');
    expect(await hbarOf(`0.0.${DELETED}`)).toBe('0');
  });

  it('answers 0 for an account id or an alias no account has, as the reference does', async () => {
    expect((await balance('0.0.5555')).body).toEqual({
      block_identifier: identifier(LATEST),
      balances: [{ value: '0', currency: HBAR_CURRENCY }],
    });
    expect((await balance(`0x1220${'cd'.repeat(32)}`)).body.balances).toEqual([
      { value: '0', currency: HBAR_CURRENCY },
    ]);
  });

  it.each([
    ['an address that is neither an id nor a key alias', { address: '1001' }, 102],
    ['an id out of range', { address: '0.0.274877906944' }, 102],
    ['an alias that is no key', { address: `0x${'11'.repeat(20)}` }, 102],
  ])('refuses %s', async (_name, account_identifier, code) => {
    const answer = await post('/account/balance', { account_identifier });
    expect([answer.status, answer.body.code]).toEqual([500, code]);
  });

  it('refuses a block past the tip, and a request without an account, in the words of the reference', async () => {
    expect((await balance(`0.0.${ALICE}`, { index: LATEST + 1 })).body).toEqual({
      code: 101,
      message: 'Block not found',
      retriable: true,
    });
    expect((await post('/account/balance', {})).body).toEqual({
      code: 0,
      message: 'account identifier null is invalid: Account is nil',
      retriable: false,
    });
  });

  it('answers all balances as the one balance of the account, and has no coins', async () => {
    const all = await post('/account/all-balances', { account_identifier: { address: `0x${ALIAS}` } });
    expect(all.body).toEqual({
      block_identifier: identifier(LATEST),
      account_balances: [
        {
          balances: [{ value: '350', currency: HBAR_CURRENCY }],
          metadata: { account_id: '0.0.1002', public_key: `0x${ALIAS}` },
        },
      ],
    });
    const coins = await post('/account/coins', { account_identifier: { address: '0.0.2' }, include_mempool: false });
    expect(coins.body).toEqual({ code: 111, message: 'Not implemented', retriable: false });
  });
});

describe('before the genesis block is known', () => {
  const { worker } = registerWorkerSuite({
    seed: (db) =>
      insertRecordFile(db.sql, { index: 0n, consensus_start: 1n, consensus_end: 2n, hash: 'ab'.repeat(48) }),
  });
  const nodeIsStarting = { code: 110, message: 'Node is starting', retriable: true };

  it('answers every block and balance with Node is starting', async () => {
    const post = (endpoint: string, body: object) =>
      postMesh(worker.baseUrl, endpoint, { network_identifier: MESH_NETWORK, ...body });
    expect((await post('/block', { block_identifier: { index: 0 } })).body).toEqual(nodeIsStarting);
    expect((await post('/network/status', {})).body).toEqual(nodeIsStarting);
    expect((await post('/account/balance', { account_identifier: { address: '0.0.2' } })).body).toEqual(nodeIsStarting);
  });
});
