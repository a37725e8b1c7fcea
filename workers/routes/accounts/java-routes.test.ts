import { describe, expect, it } from 'vitest';
import { insertNftAllowance, insertTokenAirdrop } from '../../../test/harness/factories-accounts.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import { base32Encode } from '../../format/base32.ts';
import { answerValidator } from '../docs/openapi-ajv.ts';

/**
 * The routes the reference serves from its Java process: `/accounts/{id}/allowances/nfts` and
 * `/accounts/{id}/airdrops/{outstanding,pending}` (parameter grammar, paging, errors).
 */

const OWNER = 1001;
const ALIAS = Buffer.alloc(32, 0x12);
const EVM_ADDRESS = Buffer.alloc(20, 0xab);
/** An account whose deleted flag is null: the Java process does not find it by alias, the JavaScript one does. */
const NULL_DELETED_ALIAS = Buffer.alloc(32, 0x34);

const allowancePairs = (body: { allowances: { spender: string; owner: string; token_id: string }[] }) =>
  body.allowances.map((a) => `${a.owner}>${a.spender}/${a.token_id}`);
const airdropKeys = (body: {
  airdrops: { receiver_id: string; sender_id: string; token_id: string; serial_number: number | null }[];
}) => body.airdrops.map((a) => `${a.sender_id}>${a.receiver_id}/${a.token_id}#${a.serial_number}`);

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    await insertEntity(db.sql, OWNER, 1n, { alias: ALIAS, evm_address: EVM_ADDRESS });
    await insertEntity(db.sql, 1003, 1n, { alias: NULL_DELETED_ALIAS, deleted: null });
    for (const [spender, token] of [
      [2001, 5001],
      [2001, 5002],
      [2002, 5001],
      [2002, 5003],
      [2003, 5002],
    ]) {
      await insertNftAllowance(db.sql, { owner: OWNER, spender: spender as number, token_id: token as number });
    }
    await insertNftAllowance(db.sql, { owner: OWNER, spender: 2004, token_id: 5001, approved_for_all: false });
    await insertNftAllowance(db.sql, { owner: 3002, spender: OWNER, token_id: 5001 });
    await insertNftAllowance(db.sql, { owner: 3001, spender: OWNER, token_id: 5001 });

    const airdrop = (receiver: number, token: number, serial = 0, row = {}) =>
      insertTokenAirdrop(db.sql, {
        sender_account_id: OWNER,
        receiver_account_id: receiver,
        token_id: token,
        serial_number: serial,
        ...row,
      });
    await airdrop(2001, 6001);
    await airdrop(2001, 6002, 2);
    await airdrop(2001, 6002, 1);
    await airdrop(2002, 6001);
    await airdrop(2003, 6002, 3);
    await airdrop(2003, 6002, 4, { state: 'CLAIMED' });
    await insertTokenAirdrop(db.sql, {
      sender_account_id: 3002,
      receiver_account_id: OWNER,
      token_id: 6002,
      serial_number: 5,
    });
    await insertTokenAirdrop(db.sql, { sender_account_id: 3001, receiver_account_id: OWNER, token_id: 6001 });
  },
});

const NFT_ALLOWANCES = `/api/v1/accounts/0.0.${OWNER}/allowances/nfts`;

describe('GET /api/v1/accounts/{id}/allowances/nfts', () => {
  it('lists the approved-for-all allowances the account granted, by spender then token', async () => {
    const res = await worker.get(NFT_ALLOWANCES);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
    expect(res.body.allowances[0]).toEqual({
      approved_for_all: true,
      owner: '0.0.1001',
      spender: '0.0.2001',
      timestamp: { from: '0.000000001', to: null },
      token_id: '0.0.5001',
    });
    expect(allowancePairs(res.body)).toEqual([
      '0.0.1001>0.0.2001/0.0.5001',
      '0.0.1001>0.0.2001/0.0.5002',
      '0.0.1001>0.0.2002/0.0.5001',
      '0.0.1001>0.0.2002/0.0.5003',
      '0.0.1001>0.0.2003/0.0.5002',
    ]);
    expect(res.body.links).toEqual({ next: null });
  });

  it('pages with account.id and token.id bounds in links.next and the Link header', async () => {
    const first = await worker.get(`${NFT_ALLOWANCES}?limit=2`);
    const next = `${NFT_ALLOWANCES}?limit=2&account.id=gte:0.0.2001&token.id=gt:0.0.5002`;
    expect(first.body.links.next).toBe(next);
    expect(first.headers.get('link')).toBe(`<${next}>; rel="next"`);
    const second = await worker.get(next);
    expect(allowancePairs(second.body)).toEqual(['0.0.1001>0.0.2002/0.0.5001', '0.0.1001>0.0.2002/0.0.5003']);
    expect(second.body.links.next).toBe(`${NFT_ALLOWANCES}?limit=2&account.id=gte:0.0.2002&token.id=gt:0.0.5003`);
    const third = await worker.get(second.body.links.next);
    expect(allowancePairs(third.body)).toEqual(['0.0.1001>0.0.2003/0.0.5002']);
    expect(third.body.links.next).toBeNull();
  });

  it('pages down with order=desc', async () => {
    const res = await worker.get(`${NFT_ALLOWANCES}?order=DESC&limit=3`);
    expect(allowancePairs(res.body)).toEqual([
      '0.0.1001>0.0.2003/0.0.5002',
      '0.0.1001>0.0.2002/0.0.5003',
      '0.0.1001>0.0.2002/0.0.5001',
    ]);
    expect(res.body.links.next).toBe(
      `${NFT_ALLOWANCES}?order=DESC&limit=3&account.id=lte:0.0.2002&token.id=lt:0.0.5001`,
    );
  });

  it('lists the allowances granted to the account with owner=false, by owner', async () => {
    const res = await worker.get(`${NFT_ALLOWANCES}?owner=false`);
    expect(allowancePairs(res.body)).toEqual(['0.0.3001>0.0.1001/0.0.5001', '0.0.3002>0.0.1001/0.0.5001']);
  });

  it.each([
    ['account.id=2002', ['0.0.1001>0.0.2002/0.0.5001', '0.0.1001>0.0.2002/0.0.5003']],
    ['account.id=0.0.2002&token.id=5003', ['0.0.1001>0.0.2002/0.0.5003']],
    ['account.id=gte:2002&token.id=gte:5002', ['0.0.1001>0.0.2002/0.0.5003', '0.0.1001>0.0.2003/0.0.5002']],
    [
      'account.id=lte:2002&token.id=lte:5001',
      ['0.0.1001>0.0.2001/0.0.5001', '0.0.1001>0.0.2001/0.0.5002', '0.0.1001>0.0.2002/0.0.5001'],
    ],
    ['account.id=gt:2001&account.id=lt:2003', ['0.0.1001>0.0.2002/0.0.5001', '0.0.1001>0.0.2002/0.0.5003']],
    ['account.id=gt:2001,lt:2003', ['0.0.1001>0.0.2002/0.0.5001', '0.0.1001>0.0.2002/0.0.5003']],
    ['Account.id=2002&unknown=1', undefined],
  ])('filters with %s', async (query, expected) => {
    const res = await worker.get(`${NFT_ALLOWANCES}?${query}`);
    expect(res.status).toBe(200);
    // parameter names are case-sensitive and unknown ones are ignored
    expect(allowancePairs(res.body)).toEqual(expected ?? allowancePairs((await worker.get(NFT_ALLOWANCES)).body));
  });

  it('finds the account by EVM address and by alias, and answers 404 for a deleted-flag-null alias', async () => {
    const byEvm = await worker.get(`/api/v1/accounts/0x${EVM_ADDRESS.toString('hex')}/allowances/nfts`);
    const byAlias = await worker.get(`/api/v1/accounts/${base32Encode(ALIAS)}/allowances/nfts`);
    expect(allowancePairs(byEvm.body)).toHaveLength(5);
    expect(byAlias.body).toEqual(byEvm.body);
    const missing = await worker.get(`/api/v1/accounts/${base32Encode(NULL_DELETED_ALIAS)}/allowances/nfts`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      _status: { messages: [{ message: 'Not Found', detail: 'No account found for the given ID' }] },
    });
    // an entity id is taken as is, existing or not
    const unknown = await worker.get('/api/v1/accounts/0.0.999999/allowances/nfts');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ allowances: [], links: { next: null } });
  });

  it('answers 404 Not found for an id the reference gateway does not send to rest-java', async () => {
    // Its pattern takes numbers, EVM addresses and base32 aliases; the Node REST API has no such route.
    const response = await worker.get('/api/v1/accounts/abc/allowances/nfts');
    expect([response.status, response.body]).toEqual([404, { _status: { messages: [{ message: 'Not found' }] } }]);
  });

  it.each([
    ['0.0.274877906944', '', "Failed to convert 'id'"],
    ['0.0.1001', '?limit=abc', "Failed to convert 'limit'"],
    ['0.0.1001', '?limit=0', 'limit must be greater than 0'],
    ['0.0.1001', '?limit=101', 'limit must be less than or equal to 100'],
    ['0.0.1001', '?order=sideways', "Failed to convert 'order'"],
    ['0.0.1001', '?owner=maybe', "Failed to convert 'owner'"],
    ['0.0.1001', '?account.id=x', "Failed to convert 'account.id'"],
    ['0.0.1001', '?account.id=1&account.id=2&account.id=3', 'account.id size must be between 0 and 2'],
    ['0.0.1001', '?token.id=5001', 'token.id parameter must have account.id present'],
    ['0.0.1001', '?account.id=ne:2001', 'Unsupported range operator ne for account.id'],
    ['0.0.1001', '?account.id=gt:2005&account.id=lt:2003', 'Invalid range provided for account.id'],
    [
      '0.0.1001',
      '?account.id=gt:2001&account.id=gte:2002',
      'Only one range operator from [gt, gte] is allowed for the given parameter for account.id',
    ],
    ['0.0.1001', '?account.id=2001&account.id=lt:2003', "Can't support both range and equal for account.id"],
    ['0.0.1001', '?account.id=2001&token.id=gt:5003&token.id=lt:5002', 'Invalid range provided for token.id'],
    ['0.0.1001', '?account.id=gte:2001&token.id=lt:5003', 'Requires the presence of an lte or eq account.id parameter'],
    ['0.0.1001', '?account.id=lte:2001&token.id=gt:5003', 'Requires the presence of an gte or eq account.id parameter'],
  ])('answers 400 for /accounts/%s/allowances/nfts%s', async (id, query, detail) => {
    const res = await worker.get(`/api/v1/accounts/${id}/allowances/nfts${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ _status: { messages: [{ message: 'Bad Request', detail }] } });
  });

  it('reports every constraint violation together', async () => {
    const res = await worker.get(`${NFT_ALLOWANCES}?limit=0&token.id=1&token.id=2&token.id=3`);
    expect(res.body._status.messages).toEqual([
      { message: 'Bad Request', detail: 'limit must be greater than 0' },
      { message: 'Bad Request', detail: 'token.id size must be between 0 and 2' },
    ]);
  });
});

const OUTSTANDING = `/api/v1/accounts/0.0.${OWNER}/airdrops/outstanding`;
const PENDING = `/api/v1/accounts/0.0.${OWNER}/airdrops/pending`;

describe('GET /api/v1/accounts/{id}/airdrops/{outstanding,pending}', () => {
  it('lists the pending airdrops the account sent, by receiver, token and serial number', async () => {
    const res = await worker.get(OUTSTANDING);
    expect(res.status).toBe(200);
    expect(airdropKeys(res.body)).toEqual([
      '0.0.1001>0.0.2001/0.0.6001#null',
      '0.0.1001>0.0.2001/0.0.6002#1',
      '0.0.1001>0.0.2001/0.0.6002#2',
      '0.0.1001>0.0.2002/0.0.6001#null',
      '0.0.1001>0.0.2003/0.0.6002#3',
    ]);
    expect(res.body.airdrops[0]).toEqual({
      amount: 10,
      receiver_id: '0.0.2001',
      sender_id: '0.0.1001',
      serial_number: null,
      timestamp: { from: '0.000000001', to: null },
      token_id: '0.0.6001',
    });
    expect(res.body.airdrops[1].amount).toBeNull();
    expect(res.body.links.next).toBeNull();
    // an NFT's airdrop has no amount, and the OpenAPI document says so
    expect(answerValidator().check(OUTSTANDING, 200, res.body)).toEqual([]);
  });

  it('pages by receiver, token and serial number, and by token alone after a fungible airdrop', async () => {
    const first = await worker.get(`${OUTSTANDING}?limit=2`);
    expect(first.body.links.next).toBe(
      `${OUTSTANDING}?limit=2&receiver.id=gte:0.0.2001&token.id=gte:0.0.6002&serialnumber=gt:1`,
    );
    const second = await worker.get(first.body.links.next);
    expect(airdropKeys(second.body)).toEqual(['0.0.1001>0.0.2001/0.0.6002#2', '0.0.1001>0.0.2002/0.0.6001#null']);
    expect(second.body.links.next).toBe(`${OUTSTANDING}?limit=2&receiver.id=gte:0.0.2002&token.id=gt:0.0.6001`);
    const third = await worker.get(second.body.links.next);
    expect(airdropKeys(third.body)).toEqual(['0.0.1001>0.0.2003/0.0.6002#3']);
    expect(third.body.links.next).toBeNull();
  });

  it('lists the airdrops the account is to receive, by sender', async () => {
    const res = await worker.get(PENDING);
    expect(airdropKeys(res.body)).toEqual(['0.0.3001>0.0.1001/0.0.6001#null', '0.0.3002>0.0.1001/0.0.6002#5']);
    const bySender = await worker.get(`${PENDING}?sender.id=3002`);
    expect(airdropKeys(bySender.body)).toEqual(['0.0.3002>0.0.1001/0.0.6002#5']);
  });

  it.each([
    ['token.id=6002', ['0.0.2001/0.0.6002#1', '0.0.2001/0.0.6002#2', '0.0.2003/0.0.6002#3']],
    ['serialnumber=2', ['0.0.2001/0.0.6002#2']],
    ['receiver.id=2001&serialnumber=gte:2', ['0.0.2001/0.0.6002#2']],
    ['receiver.id=gte:2002', ['0.0.2002/0.0.6001#null', '0.0.2003/0.0.6002#3']],
    ['receiver.id=lte:2001&token.id=lt:6002', ['0.0.2001/0.0.6001#null']],
    ['order=desc&limit=1', ['0.0.2003/0.0.6002#3']],
    // sender.id is not a parameter of this route: ignored
    [
      'sender.id=9999',
      [
        '0.0.2001/0.0.6001#null',
        '0.0.2001/0.0.6002#1',
        '0.0.2001/0.0.6002#2',
        '0.0.2002/0.0.6001#null',
        '0.0.2003/0.0.6002#3',
      ],
    ],
  ])('filters outstanding airdrops with %s', async (query, expected) => {
    const res = await worker.get(`${OUTSTANDING}?${query}`);
    expect(res.status).toBe(200);
    expect(airdropKeys(res.body)).toEqual(expected.map((key) => `0.0.1001>${key}`));
  });

  it.each([
    ['?receiver.id=gt:2005&receiver.id=lt:2003', 'Invalid range provided for account.id'],
    ['?serialnumber=-1', "Failed to convert 'serialnumber'"],
    ['?limit=101', 'limit must be less than or equal to 100'],
    ['?token.id=1,2,3', 'token.id size must be between 0 and 2'],
  ])('answers 400 for %s', async (query, detail) => {
    const res = await worker.get(`${OUTSTANDING}${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ _status: { messages: [{ message: 'Bad Request', detail }] } });
  });

  it('answers 404 for an EVM address no account has', async () => {
    const res = await worker.get(`/api/v1/accounts/0x${'cd'.repeat(20)}/airdrops/pending`);
    expect(res.status).toBe(404);
    expect(res.body._status.messages[0]).toEqual({ message: 'Not Found', detail: 'No account found for the given ID' });
  });
});
