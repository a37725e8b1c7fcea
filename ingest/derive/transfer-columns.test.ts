import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';
import { prng } from './network.ts';
import { deriveCommon } from './transaction.ts';

const TOKEN = { tokenNum: 3000n };
const account = (accountNum: bigint) => ({ accountID: { accountNum } });

function item(
  record: Record<string, unknown>,
  body: Record<string, unknown> = {},
  status = 22,
  name = 'cryptoTransfer',
) {
  const full = {
    consensusTimestamp: 600n,
    successful: status === 22,
    status,
    type: 14,
    payerAccountId: 1000n,
    bodyName: name,
    body: { [name]: name === 'cryptoTransfer' ? { tokenTransfers: [], ...body } : body },
    record: {
      tokenTransferLists: [],
      paid_staking_rewards: [],
      automatic_token_associations: [],
      assessed_custom_fees: [],
      ...record,
    },
  } as unknown as RecordItem;
  const ctx: ItemContext = {
    item: full,
    rows: new FileRows(),
    transaction: {},
    hapiMinor: 60,
  };
  return ctx;
}

describe('token and NFT transfers', () => {
  const record = {
    tokenTransferLists: [
      {
        token: TOKEN,
        transfers: [
          { ...account(2000n), amount: -10n },
          { ...account(2001n), amount: -4n },
          { ...account(2002n), amount: 14n },
        ],
        nftTransfers: [
          { senderAccountID: { accountNum: 2000n }, receiverAccountID: { accountNum: 2002n }, serialNumber: 5n },
        ],
      },
    ],
  };
  const body = {
    tokenTransfers: [
      {
        token: TOKEN,
        // 2000's debit is in the body as approved; 2001's record debit differs from the body's, which is approved.
        transfers: [
          { ...account(2000n), amount: -10n, is_approval: true },
          { ...account(2001n), amount: -3n, is_approval: true },
        ],
        nftTransfers: [
          {
            senderAccountID: { accountNum: 2000n },
            receiverAccountID: { accountNum: 2002n },
            serialNumber: 5n,
            is_approval: true,
          },
        ],
      },
    ],
  };

  it('mark a debit approved when the body lists it, or the same account, as approved; credits never', () => {
    const ctx = item(record, body);
    deriveCommon(ctx);
    expect(ctx.rows.rows('token_transfer').map((r) => [r.account_id, r.amount, r.is_approval])).toEqual([
      [2000n, -10n, true],
      [2001n, -4n, true],
      [2002n, 14n, false],
    ]);
  });

  it('list NFT transfers on the transaction, give the NFT its new owner and clear its spenders', () => {
    const ctx = item(record, body);
    deriveCommon(ctx);
    expect(ctx.transaction.nft_transfer).toEqual([
      { is_approval: true, receiver_account_id: 2002n, sender_account_id: 2000n, serial_number: 5n, token_id: 3000n },
    ]);
    expect(ctx.rows.changes.get('nft')?.[0]).toMatchObject({
      row: { token_id: 3000n, serial_number: 5n, account_id: 2002n, spender: null, delegating_spender: null },
      overwrite: ['delegating_spender', 'spender'],
    });
  });

  it('write no token rows for a failed transaction', () => {
    const ctx = item(record, body, 7);
    deriveCommon(ctx);
    expect(ctx.rows.rows('token_transfer')).toEqual([]);
    expect(ctx.transaction.nft_transfer).toBeUndefined();
  });
});

describe('staking rewards, assessed custom fees and PRNG', () => {
  it('write a staking reward transfer per paid reward, failed transactions included', () => {
    const ctx = item({ paid_staking_rewards: [{ ...account(2003n), amount: 77n }] }, {}, 7);
    deriveCommon(ctx);
    expect(ctx.rows.rows('staking_reward_transfer')).toEqual([
      { account_id: 2003n, amount: 77n, consensus_timestamp: 600n, payer_account_id: 1000n },
    ]);
  });

  it('write assessed custom fees with a NULL token for HBAR fees', () => {
    const ctx = item({
      assessed_custom_fees: [
        {
          amount: 5n,
          fee_collector_account_id: { accountNum: 98n },
          effective_payer_account_id: [{ accountNum: 2000n }],
        },
        { amount: 6n, token_id: TOKEN, fee_collector_account_id: { accountNum: 98n }, effective_payer_account_id: [] },
      ],
    });
    deriveCommon(ctx);
    expect(
      ctx.rows.rows('assessed_custom_fee').map((r) => [r.amount, r.token_id, r.effective_payer_account_ids]),
    ).toEqual([
      [5n, null, [2000n]],
      [6n, 3000n, []],
    ]);
  });

  it('write a PRNG row with the bytes or the number the record has, none for a failed transaction or without either', () => {
    const number = item({ prng_number: 12 }, { range: 20 }, 22, 'util_prng');
    prng(number);
    expect(number.rows.rows('prng')).toEqual([
      { consensus_timestamp: 600n, range: 20, prng_bytes: null, prng_number: 12, payer_account_id: 1000n },
    ]);
    const failed = item({ prng_number: 3 }, {}, 7, 'util_prng');
    prng(failed);
    expect(failed.rows.rows('prng')).toEqual([]);
    const noEntropy = item({}, {}, 22, 'util_prng');
    prng(noEntropy);
    expect(noEntropy.rows.rows('prng')).toEqual([]);
  });
});
