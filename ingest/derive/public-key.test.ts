import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { cryptoCreate } from './crypto.ts';
import { FileRows } from './file-rows.ts';
import { scheduleCreate } from './schedule.ts';
import { tokenCreate, tokenUpdate } from './token.ts';

/** The secp256k1 public key of private key 1 as a protobuf Key (ECDSA_secp256k1 = 7). */
const KEY = Buffer.from('3a210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
const COMPRESSED = KEY.subarray(2).toString('hex');
const keyList = (inner: Buffer) => Buffer.concat([Buffer.from([0x32, inner.length + 2, 0x0a, inner.length]), inner]);

function item(bodyName: string, body: Record<string, unknown>, receipt: Record<string, unknown> = {}): ItemContext {
  const full = {
    consensusTimestamp: 800n,
    successful: true,
    status: 22,
    payerAccountId: 1001n,
    bodyName,
    body: { [bodyName]: body },
    record: { receipt, automatic_token_associations: [] },
    signaturePairs: [],
  } as unknown as RecordItem;
  return { item: full, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
}

const entity = (ctx: ItemContext) => ctx.rows.changes.get('entity')?.[0]?.row;

describe('entity.public_key', () => {
  it('is the primitive key of any type, alone or the only one of a key list, and none deeper', () => {
    const account = (key: Buffer) => {
      const ctx = item('cryptoCreateAccount', { key }, { accountID: { accountNum: 1500n } });
      cryptoCreate(ctx);
      return entity(ctx)?.public_key;
    };
    expect(account(KEY)).toBe(COMPRESSED);
    expect(account(keyList(KEY))).toBe(COMPRESSED);
    expect(account(keyList(keyList(KEY)))).toBeNull();
  });

  it("follows the admin key of tokens and schedules, as the importer's setKey derives it", () => {
    const token = item(
      'tokenCreation',
      { adminKey: KEY, treasury: { accountNum: 2n }, custom_fees: [] },
      { tokenID: { tokenNum: 1600n } },
    );
    tokenCreate(token);
    expect(entity(token)).toMatchObject({ type: 'TOKEN', public_key: COMPRESSED });
    const update = item('tokenUpdate', { token: { tokenNum: 1600n }, adminKey: keyList(KEY) });
    tokenUpdate(update);
    expect(entity(update)).toMatchObject({ deleted: false, public_key: COMPRESSED });
    const schedule = item('scheduleCreate', { adminKey: KEY }, { scheduleID: { scheduleNum: 1601n } });
    scheduleCreate(schedule);
    expect(entity(schedule)).toMatchObject({ type: 'SCHEDULE', public_key: COMPRESSED });
  });
});
