import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { FileRows } from './file-rows.ts';
import { tokenCreate } from './token.ts';

describe('text columns the importer sanitizes', () => {
  it('hold U+FFFD for each NUL character of an entity memo and a token name and symbol', () => {
    const item = {
      consensusTimestamp: 900n,
      successful: true,
      status: 22,
      payerAccountId: 1001n,
      bodyName: 'tokenCreation',
      body: {
        tokenCreation: { name: 'a\0b', symbol: '\0S', memo: 'm\0', treasury: { accountNum: 2n }, custom_fees: [] },
      },
      record: { receipt: { tokenID: { tokenNum: 1700n } }, automatic_token_associations: [] },
    } as unknown as RecordItem;
    const ctx: ItemContext = { item, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
    tokenCreate(ctx);
    expect(ctx.rows.changes.get('entity')?.[0]?.row.memo).toBe('m\uFFFD');
    expect(ctx.rows.changes.get('token')?.[0]?.row).toMatchObject({ name: 'a\uFFFDb', symbol: '\uFFFDS' });
  });
});
