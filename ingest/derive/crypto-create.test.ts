import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import type { ItemContext } from './context.ts';
import { contractUpdate } from './contract.ts';
import { cryptoCreate, cryptoUpdate } from './crypto.ts';
import { FileRows } from './file-rows.ts';

/** The secp256k1 public key of private key 1 as a protobuf Key (ECDSA_secp256k1 = 7), and its Ethereum address. */
const KEY_ALIAS = Buffer.from('3a210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 'hex');
const ITS_ADDRESS = '7e5f4552091a69125d5dfcb7b8c2659029395bdf';
const hex = (bytes: unknown) => (bytes === null ? null : Buffer.from(bytes as Uint8Array).toString('hex'));

function item(bodyName: string, body: Record<string, unknown>, record: Record<string, unknown> = {}): ItemContext {
  const full = {
    consensusTimestamp: 800n,
    type: 11,
    successful: true,
    status: 22,
    payerAccountId: 1001n,
    bodyName,
    body: { [bodyName]: body },
    record: { receipt: { accountID: { accountNum: 1500n } }, ...record },
  } as unknown as RecordItem;
  return { item: full, rows: new FileRows(), transaction: {}, hapiMinor: 60 };
}

const entity = (ctx: ItemContext) => ctx.rows.changes.get('entity')?.[0]?.row;

describe('the entity of a CryptoCreate', () => {
  it("takes a key alias as the key when none is given, and the EVM address of the alias's public key", () => {
    const ctx = item('cryptoCreateAccount', { alias: KEY_ALIAS, initialBalance: 5n });
    cryptoCreate(ctx);
    const row = entity(ctx);
    expect([hex(row?.alias), hex(row?.key), hex(row?.evm_address)]).toEqual([
      KEY_ALIAS.toString('hex'),
      KEY_ALIAS.toString('hex'),
      ITS_ADDRESS,
    ]);
    expect(row?.public_key).toBe(KEY_ALIAS.subarray(2).toString('hex'));
  });

  it("prefers the record's alias and EVM address to the body's", () => {
    const evm = Buffer.alloc(20, 7);
    const ctx = item('cryptoCreateAccount', { alias: Buffer.alloc(20, 1) }, { alias: evm, evm_address: evm });
    cryptoCreate(ctx);
    expect([hex(entity(ctx)?.alias), hex(entity(ctx)?.evm_address)]).toEqual([
      evm.toString('hex'),
      evm.toString('hex'),
    ]);
  });
});

describe('a successful update', () => {
  it('marks the account or contract not deleted', () => {
    const account = item('cryptoUpdateAccount', { accountIDToUpdate: { accountNum: 1500n } });
    cryptoUpdate(account);
    expect(entity(account)).toMatchObject({ id: 1500n, deleted: false });
    const contract = item('contractUpdateInstance', { contractID: { contractNum: 1501n } });
    contractUpdate(contract);
    expect(entity(contract)).toMatchObject({ id: 1501n, deleted: false });
  });
});
