import { describe, expect, it } from 'vitest';
import type { RecordItem } from '../decode/record-item.ts';
import { cryptoCreate, cryptoUpdate } from './crypto.ts';
import { FileRows } from './file-rows.ts';

const DELEGATE = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const ZERO = new Uint8Array(20);

function derive(
  derivation: typeof cryptoCreate,
  bodyName: string,
  body: Record<string, unknown>,
  record: Record<string, unknown> = {},
): Record<string, unknown> | undefined {
  const item = {
    consensusTimestamp: 900n,
    successful: true,
    payerAccountId: 1000n,
    bodyName,
    body: { [bodyName]: body },
    record: { receipt: { status: 22 }, ...record },
  } as unknown as RecordItem;
  const rows = new FileRows();
  derivation({ item, rows, transaction: {}, hapiMinor: 66 });
  return rows.changes.get('entity')?.[0]?.row;
}

describe('HIP-1340 delegation_address on accounts', () => {
  it('a CryptoUpdate (the child of a type 4 authorization) sets the delegation address', () => {
    const row = derive(cryptoUpdate, 'cryptoUpdateAccount', {
      accountIDToUpdate: { accountNum: 1010n },
      delegation_address: DELEGATE,
    });
    expect(row?.id).toBe(1010n);
    expect(row?.delegation_address).toEqual(DELEGATE);
  });

  it('a CryptoUpdate with the zero address clears it, one without the field leaves it', () => {
    const cleared = derive(cryptoUpdate, 'cryptoUpdateAccount', {
      accountIDToUpdate: { accountNum: 1010n },
      delegation_address: ZERO,
    });
    expect(cleared?.delegation_address).toEqual(ZERO);
    const untouched = derive(cryptoUpdate, 'cryptoUpdateAccount', {
      accountIDToUpdate: { accountNum: 1010n },
      delegation_address: new Uint8Array(),
    });
    expect(untouched).not.toHaveProperty('delegation_address');
  });

  it('a CryptoCreate with a delegation address creates the account delegated; the zero address is ignored', () => {
    const receipt = { receipt: { status: 22, accountID: { accountNum: 1011n } } };
    const created = derive(cryptoCreate, 'cryptoCreateAccount', { delegation_address: DELEGATE }, receipt);
    expect(created?.delegation_address).toEqual(DELEGATE);
    const zero = derive(cryptoCreate, 'cryptoCreateAccount', { delegation_address: ZERO }, receipt);
    expect(zero?.delegation_address).toBeNull();
  });
});
