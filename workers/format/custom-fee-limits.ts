import { fields, int64 } from './protobuf-reader.ts';

export interface MaxCustomFee {
  account_id: string | null;
  amount: bigint;
  denominating_token_id: string | null;
}

/**
 * `transaction.max_custom_fees` holds serialized HAPI CustomFeeLimit messages (account_id = 1, repeated
 * FixedFee fees = 2; FixedFee: amount = 1, denominating_token_id = 2). The API lists one entry per fixed fee.
 */
export function maxCustomFees(limits: readonly Uint8Array[] | null | undefined): MaxCustomFee[] {
  const out: MaxCustomFee[] = [];
  for (const limit of limits ?? []) {
    let account: string | null = null;
    const fees: Uint8Array[] = [];
    for (const field of fields(limit)) {
      if (!('bytes' in field)) continue;
      if (field.number === 1) account = accountIdString(field.bytes);
      else if (field.number === 2) fees.push(field.bytes);
    }
    for (const fee of fees) {
      let amount = 0n;
      let token: string | null = null;
      for (const field of fields(fee)) {
        if (field.number === 1 && 'varint' in field) amount = int64(field.varint);
        else if (field.number === 2 && 'bytes' in field) token = idString(field.bytes, 3);
      }
      out.push({ account_id: account, amount, denominating_token_id: token });
    }
  }
  return out;
}

/** AccountID (shardNum = 1, realmNum = 2, accountNum = 3 | alias = 4): only the numeric form has a string. */
function accountIdString(bytes: Uint8Array): string | null {
  let hasNum = false;
  for (const field of fields(bytes)) if (field.number === 3 && 'varint' in field) hasNum = true;
  return hasNum ? idString(bytes, 3) : null;
}

function idString(bytes: Uint8Array, numField: number): string {
  let shard = 0n;
  let realm = 0n;
  let num = 0n;
  for (const field of fields(bytes)) {
    if (!('varint' in field)) continue;
    if (field.number === 1) shard = int64(field.varint);
    else if (field.number === 2) realm = int64(field.varint);
    else if (field.number === numField) num = int64(field.varint);
  }
  return `${shard}.${realm}.${num}`;
}
