import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import { pendingAirdrops, resolveAirdrops } from './airdrop.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';

function context(item: Record<string, unknown>): ItemContext {
  const full = { consensusTimestamp: 900n, successful: true, ...item } as unknown as RecordItem;
  return { item: full, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
}

const fungible = {
  sender_id: { accountNum: 10n },
  receiver_id: { accountNum: 20n },
  fungible_token_type: { tokenNum: 30n },
};
const nft = {
  sender_id: { accountNum: 10n },
  receiver_id: { accountNum: 21n },
  non_fungible_token: { token_ID: { tokenNum: 31n }, serial_number: 4n },
};

describe('token airdrops', () => {
  it('a record lists pending airdrops: PENDING rows, the amount only for fungible ones', () => {
    const ctx = context({
      record: {
        new_pending_airdrops: [
          { pending_airdrop_id: fungible, pending_airdrop_value: { amount: 500n } },
          { pending_airdrop_id: nft },
        ],
      },
    });
    pendingAirdrops(ctx);
    expect(ctx.rows.changes.get('token_airdrop')?.map((c) => c.row)).toEqual([
      {
        sender_account_id: 10n,
        receiver_account_id: 20n,
        token_id: 30n,
        serial_number: 0n,
        amount: 500n,
        state: 'PENDING',
      },
      {
        sender_account_id: 10n,
        receiver_account_id: 21n,
        token_id: 31n,
        serial_number: 4n,
        amount: null,
        state: 'PENDING',
      },
    ]);
  });

  it('a claim moves them to CLAIMED and associates the receiver; a cancel only changes the state', () => {
    const claim = context({ bodyName: 'tokenClaimAirdrop', body: { tokenClaimAirdrop: { pending_airdrops: [nft] } } });
    resolveAirdrops(claim, 'CLAIMED');
    expect(claim.rows.changes.get('token_airdrop')?.map((c) => c.row)).toEqual([
      { sender_account_id: 10n, receiver_account_id: 21n, token_id: 31n, serial_number: 4n, state: 'CLAIMED' },
    ]);
    expect(claim.rows.changes.get('token_account')?.map((c) => c.row)).toEqual([
      {
        account_id: 21n,
        token_id: 31n,
        associated: true,
        automatic_association: false,
        balance: 0n,
        balance_timestamp: 900n,
        created_timestamp: 900n,
      },
    ]);

    const cancel = context({
      bodyName: 'tokenCancelAirdrop',
      body: { tokenCancelAirdrop: { pending_airdrops: [fungible] } },
    });
    resolveAirdrops(cancel, 'CANCELLED');
    expect(cancel.rows.changes.get('token_airdrop')?.map((c) => c.row.state)).toEqual(['CANCELLED']);
    expect(cancel.rows.changes.has('token_account')).toBe(false);
  });
});
