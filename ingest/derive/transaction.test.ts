import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';
import { deriveCommon, transactionRow } from './transaction.ts';

function transfer(amounts: { account: bigint; amount: bigint; approved?: boolean }[], successful = true): ItemContext {
  const accountAmounts = amounts.map((a) => ({
    accountID: { accountNum: a.account },
    amount: a.amount,
    is_approval: a.approved ?? false,
  }));
  const item = {
    consensusTimestamp: 500n,
    successful,
    status: successful ? 22 : 7,
    type: 14,
    payerAccountId: 1000n,
    bodyName: 'cryptoTransfer',
    body: { cryptoTransfer: { transfers: { accountAmounts }, tokenTransfers: [] } },
    record: {
      transactionHash: new Uint8Array(48).fill(7),
      transferList: {
        accountAmounts: amounts.map((a) => ({ accountID: { accountNum: a.account }, amount: a.amount })),
      },
      tokenTransferLists: [],
      paid_staking_rewards: [],
      automatic_token_associations: [],
      assessed_custom_fees: [],
    },
  } as unknown as RecordItem;
  return { item, rows: new FileRows(), transaction: {}, hapiMinor: 50 };
}

describe('the rows every transaction writes', () => {
  it('mark approved debits and spend the owner allowance given to the payer', () => {
    const ctx = transfer([
      { account: 2000n, amount: -300n, approved: true },
      { account: 3000n, amount: 300n },
    ]);
    deriveCommon(ctx);
    expect(ctx.rows.rows('crypto_transfer').map((r) => [r.entity_id, r.amount, r.is_approval])).toEqual([
      [2000n, -300n, true],
      [3000n, 300n, false],
    ]);
    expect([...ctx.rows.allowanceSpends.values()]).toEqual([
      { owner: 2000n, spender: 1000n, tokenId: undefined, amount: -300n },
    ]);
    expect([...ctx.rows.entityBalances]).toEqual([
      [2000n, { amount: -300n, timestamp: 500n }],
      [3000n, { amount: 300n, timestamp: 500n }],
    ]);
  });

  it('split the transaction hash into its 32-byte key and 16-byte suffix', () => {
    const ctx = transfer([{ account: 2000n, amount: 0n }]);
    deriveCommon(ctx);
    const [hash] = ctx.rows.rows('transaction_hash');
    expect(hash).toBeDefined();
    const { hash: key, hash_suffix: suffix } = hash as { hash: Uint8Array; hash_suffix: Uint8Array };
    expect([key.length, suffix.length]).toEqual([32, 16]);
  });

  it('keep the transfers of a failed transaction but spend no allowance', () => {
    const ctx = transfer(
      [
        { account: 2000n, amount: -5n, approved: true },
        { account: 3n, amount: 5n },
      ],
      false,
    );
    deriveCommon(ctx);
    expect(ctx.rows.rows('crypto_transfer')).toHaveLength(2);
    expect(ctx.rows.allowanceSpends.size).toBe(0);
  });

  it('itemize the hbar transfers a successful CryptoTransfer asked for, and nothing of a failed one', () => {
    const amounts = [
      { account: 2000n, amount: -300n, approved: true },
      { account: 3000n, amount: 300n },
    ];
    const ctx = transfer(amounts);
    deriveCommon(ctx);
    expect(ctx.transaction.itemized_transfer).toEqual([
      { amount: -300n, entity_id: 2000n, is_approval: true },
      { amount: 300n, entity_id: 3000n, is_approval: false },
    ]);
    const failed = transfer(amounts, false);
    deriveCommon(failed);
    expect(failed.transaction.itemized_transfer).toBeUndefined();
  });

  it("write a record stream transaction's columns with the importer's defaults", () => {
    const ctx = transfer([{ account: 2000n, amount: 0n }], false);
    const item = { ...ctx.item, body: { ...ctx.item.body, max_custom_fees: [] } } as RecordItem;
    const row = transactionRow({ ...ctx, item }, 0n);
    expect(row).toMatchObject({
      result: 7,
      entity_id: null,
      initial_balance: 0n,
      max_fee: 0n,
      scheduled: false,
      nonce: 0,
      max_custom_fees: null,
      // protobuf's 0 for an unset multiplier; the congestion multiplier exists in block streams only
      high_volume_pricing_multiplier: 0n,
      congestion_pricing_multiplier: null,
    });
  });
});
