import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { systemDeleteOrUndelete } from './file.ts';
import { FileRows } from './file-rows.ts';

function item(body: Record<string, unknown>): ItemContext {
  const full = {
    consensusTimestamp: 700n,
    type: 20,
    successful: true,
    status: 22,
    payerAccountId: 50n,
    bodyName: 'systemDelete',
    body: { systemDelete: body },
    record: {},
  } as unknown as RecordItem;
  return { item: full, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
}

describe('a SystemDelete', () => {
  it("marks the file or contract deleted and leaves its expiration as it was (the body's is not written)", () => {
    const file = item({ fileID: { fileNum: 150n }, expirationTime: { seconds: 99n } });
    systemDeleteOrUndelete(file, true);
    expect(file.rows.changes.get('entity')?.[0]?.row).toEqual({
      id: 150n,
      shard: 0n,
      realm: 0n,
      num: 150n,
      deleted: true,
      type: 'FILE',
    });
    const contract = item({ contractID: { contractNum: 1500n }, expirationTime: { seconds: 99n } });
    systemDeleteOrUndelete(contract, true);
    expect(contract.rows.changes.get('entity')?.[0]?.row).toMatchObject({ id: 1500n, type: 'CONTRACT' });
    expect(contract.rows.changes.get('entity')?.[0]?.row).not.toHaveProperty('expiration_timestamp');
  });
});
