import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import { topicCreate } from './consensus.ts';
import type { ItemContext } from './context.ts';
import { approveAllowance } from './crypto.ts';
import { FileRows } from './file-rows.ts';
import {
  tokenAccountStatus,
  tokenAssociation,
  tokenCreate,
  tokenFeeScheduleUpdate,
  tokenSupply,
  tokenUpdate,
} from './token.ts';

const TOKEN = 2000n;
const TREASURY = 1500n;
const KEY = Buffer.from(`1220${'11'.repeat(32)}`, 'hex');
const account = (accountNum: bigint) => ({ accountNum });

function item(
  bodyName: string,
  body: Record<string, unknown>,
  record: Record<string, unknown> = {},
  hapiMinor = 60,
): ItemContext {
  const full = {
    consensusTimestamp: 900n,
    type: 29,
    successful: true,
    status: 22,
    payerAccountId: 1001n,
    bodyName,
    body: { [bodyName]: body },
    record: { receipt: { tokenID: { tokenNum: TOKEN } }, automatic_token_associations: [], ...record },
  } as unknown as RecordItem;
  return { item: full, rows: new FileRows(), transaction: {}, hapiMinor };
}

const rowsOf = (ctx: ItemContext, table: string) => (ctx.rows.changes.get(table) ?? []).map((c) => c.row);
const rowOf = (ctx: ItemContext, table: string) => rowsOf(ctx, table)[0];

const create = (body: Record<string, unknown> = {}) => ({
  name: 'Dune',
  symbol: 'DUNE',
  initialSupply: 500n,
  treasury: account(TREASURY),
  custom_fees: [],
  ...body,
});

describe('the token row of a TokenCreate', () => {
  it("keeps the body's max supply (0 for an infinite supply) and starts the total supply at the initial supply", () => {
    const ctx = item('tokenCreation', create(), { receipt: { tokenID: { tokenNum: TOKEN }, newTotalSupply: 7n } });
    tokenCreate(ctx);
    expect(rowOf(ctx, 'token')).toMatchObject({ max_supply: 0n, supply_type: 'INFINITE', total_supply: 500n });
    const finite = item('tokenCreation', create({ supplyType: 1, maxSupply: 9000n }));
    tokenCreate(finite);
    expect(rowOf(finite, 'token')).toMatchObject({ max_supply: 9000n, supply_type: 'FINITE' });
  });

  it('stores the metadata (empty when unset) and its key from services 0.49 only', () => {
    const body = create({ metadata_key: KEY });
    const current = item('tokenCreation', body);
    tokenCreate(current);
    const row = rowOf(current, 'token');
    expect(Buffer.from(row?.metadata as Uint8Array).length).toBe(0);
    expect(Buffer.from(row?.metadata_key as Uint8Array)).toEqual(KEY);
    const old = item('tokenCreation', { ...body, metadata: Buffer.from('abc') }, {}, 48);
    tokenCreate(old);
    expect(rowOf(old, 'token')).toMatchObject({ metadata: null, metadata_key: null });
  });
});

describe('the token_account rows of a TokenCreate', () => {
  it('gives every associated account UNFROZEN and GRANTED when the token has those keys, whatever freezeDefault', () => {
    const ctx = item('tokenCreation', create({ freezeKey: KEY, kycKey: KEY, freezeDefault: true }), {
      automatic_token_associations: [
        { account_id: account(TREASURY), token_id: { tokenNum: TOKEN } },
        { account_id: account(1600n), token_id: { tokenNum: TOKEN } },
      ],
    });
    tokenCreate(ctx);
    expect(rowOf(ctx, 'token')).toMatchObject({ freeze_status: 1, kyc_status: 2 });
    const accounts = rowsOf(ctx, 'token_account');
    expect(accounts.map((r) => [r.account_id, r.freeze_status, r.kyc_status])).toEqual([
      [TREASURY, 2, 1],
      [1600n, 2, 1],
    ]);
  });

  it('associates the treasury and the collectors of fees charged in the token when the record lists none', () => {
    const fees = [
      { fixed_fee: { amount: 5n, denominating_token_id: { tokenNum: 0n } }, fee_collector_account_id: account(1601n) },
      { fixed_fee: { amount: 5n }, fee_collector_account_id: account(1602n) },
      {
        fractional_fee: { fractional_amount: { numerator: 1n, denominator: 10n } },
        fee_collector_account_id: account(1603n),
      },
    ];
    const ctx = item('tokenCreation', create({ custom_fees: fees }));
    tokenCreate(ctx);
    const accounts = rowsOf(ctx, 'token_account').map((r) => r.account_id);
    expect(accounts.sort()).toEqual([TREASURY, 1601n, 1603n]);
    expect(rowOf(ctx, 'token_account')).toMatchObject({ freeze_status: 0, kyc_status: 0, balance: 0n });
  });
});

describe('custom_fee', () => {
  it("reads a denominating token 0.0.0 as the token itself in a fee schedule update too, fallback fees' included", () => {
    const ctx = item('token_fee_schedule_update', {
      token_id: { tokenNum: TOKEN },
      custom_fees: [
        {
          fixed_fee: { amount: 3n, denominating_token_id: { tokenNum: 0n } },
          fee_collector_account_id: account(1601n),
        },
        {
          royalty_fee: {
            exchange_value_fraction: { numerator: 1n, denominator: 4n },
            fallback_fee: { amount: 2n, denominating_token_id: { tokenNum: 0n } },
          },
          fee_collector_account_id: account(1601n),
        },
      ],
    });
    tokenFeeScheduleUpdate(ctx);
    const row = rowOf(ctx, 'custom_fee') as Record<string, Record<string, unknown>[]>;
    expect(row.fixed_fees?.[0]?.denominating_token_id).toBe(TOKEN);
    expect(row.royalty_fees?.[0]?.fallback_fee).toEqual({ amount: 2n, denominating_token_id: TOKEN });
    expect(row.fractional_fees).toBeNull();
  });

  it("stores a topic's fixed fees as a list, empty without fees, and a token's absent kinds as NULL", () => {
    const topic = item('consensusCreateTopic', { memo: 'm' }, { receipt: { topicID: { topicNum: 2100n } } });
    topicCreate(topic);
    expect(rowOf(topic, 'custom_fee')).toMatchObject({ fixed_fees: [], fractional_fees: null, royalty_fees: null });
    const token = item('tokenCreation', create());
    tokenCreate(token);
    expect(rowOf(token, 'custom_fee')).toMatchObject({ fixed_fees: null, fractional_fees: null, royalty_fees: null });
  });
});

describe('nft and token_account changes', () => {
  it('writes no NFT for a minted serial without metadata', () => {
    const ctx = item(
      'tokenMint',
      { token: { tokenNum: TOKEN }, metadata: [Buffer.from('a')] },
      { receipt: { serialNumbers: [1n, 2n], newTotalSupply: 2n } },
    );
    tokenSupply(ctx, 'mint');
    expect(rowsOf(ctx, 'nft').map((r) => r.serial_number)).toEqual([1n]);
  });

  it('marks the relationship associated on an associate and not on a dissociate', () => {
    const associate = item('tokenAssociate', { account: account(1600n), tokens: [{ tokenNum: TOKEN }] });
    tokenAssociation(associate, true);
    expect(rowOf(associate, 'token_account')).toMatchObject({ associated: true, automatic_association: false });
    const dissociate = item('tokenDissociate', { account: account(1600n), tokens: [{ tokenNum: TOKEN }] });
    tokenAssociation(dissociate, false);
    expect(rowOf(dissociate, 'token_account')).toEqual({ account_id: 1600n, token_id: TOKEN, associated: false });
  });

  it('marks the relationship associated on a freeze or a KYC grant', () => {
    const ctx = item('tokenFreeze', { token: { tokenNum: TOKEN }, account: account(1600n) });
    tokenAccountStatus(ctx, 'freeze_status', 1);
    expect(rowOf(ctx, 'token_account')).toEqual({
      account_id: 1600n,
      token_id: TOKEN,
      associated: true,
      freeze_status: 1,
    });
  });

  it("ignores a token update's metadata before services 0.49", () => {
    const body = { token: { tokenNum: TOKEN }, metadata: { value: Buffer.from('m') }, name: 'New' };
    const old = item('tokenUpdate', body, {}, 48);
    tokenUpdate(old);
    expect(rowOf(old, 'token')).toEqual({ token_id: TOKEN, name: 'New' });
    const current = item('tokenUpdate', body);
    tokenUpdate(current);
    expect(rowOf(current, 'token')?.metadata).toEqual(Buffer.from('m'));
  });
});

describe('allowances', () => {
  it("keeps the last of the body's entries for a key and sets an approved NFT's owner", () => {
    const ctx = item('cryptoApproveAllowance', {
      cryptoAllowances: [
        { spender: account(1700n), amount: 5n },
        { spender: account(1700n), amount: 8n },
      ],
      tokenAllowances: [
        { tokenId: { tokenNum: TOKEN }, spender: account(1700n), amount: 1n },
        { tokenId: { tokenNum: TOKEN }, spender: account(1700n), amount: 2n },
      ],
      nftAllowances: [
        { tokenId: { tokenNum: TOKEN }, owner: account(1600n), spender: account(1700n), serial_numbers: [4n] },
        { tokenId: { tokenNum: TOKEN }, owner: account(1600n), spender: account(1701n), serial_numbers: [4n] },
      ],
    });
    approveAllowance(ctx);
    expect(rowsOf(ctx, 'crypto_allowance').map((r) => [r.owner, r.amount])).toEqual([[1001n, 8n]]);
    expect(rowsOf(ctx, 'token_allowance').map((r) => r.amount)).toEqual([2n]);
    expect(rowsOf(ctx, 'nft')).toEqual([
      { token_id: TOKEN, serial_number: 4n, account_id: 1600n, spender: 1701n, delegating_spender: null },
    ]);
  });
});
