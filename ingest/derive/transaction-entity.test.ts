import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import type { ParsedRecordFile, RawItem } from '../decode/record-file.ts';
import { parsedRecordFile } from '../testing/parsed-record-file.ts';
import { deriveRecordFile } from './record-file.ts';

const PAYER = 1001;

function item(seconds: number, body: Record<string, unknown>): RawItem {
  const types = hapi();
  const transactionID = { accountID: { accountNum: PAYER }, transactionValidStart: { seconds: seconds - 5 } };
  const bodyBytes = types.TransactionBody.encode(types.TransactionBody.fromObject({ transactionID, ...body })).finish();
  return {
    transaction: types.Transaction.encode(types.Transaction.fromObject({ bodyBytes })).finish(),
    record: types.TransactionRecord.encode(
      types.TransactionRecord.fromObject({ consensusTimestamp: { seconds }, transactionID, receipt: { status: 22 } }),
    ).finish(),
  };
}

function entityIds(bodies: Record<string, unknown>[]): unknown[] {
  const file: ParsedRecordFile = parsedRecordFile(bodies.map((body, i) => item(100 + i, body)));
  const rows = deriveRecordFile(file, { index: 1n, loadStart: 0n, sidecars: [] }).rows.rows('transaction');
  return rows.map((r) => r.entity_id);
}

const token = { tokenNum: 3000 };
const account = { accountNum: 1600 };

describe("a transaction's entity_id", () => {
  it("is the account of a freeze, unfreeze, KYC grant or revoke, not the token (the importer's getEntity)", () => {
    expect(
      entityIds([
        { tokenFreeze: { token, account } },
        { tokenUnfreeze: { token, account } },
        { tokenGrantKyc: { token, account } },
        { tokenRevokeKyc: { token, account } },
      ]),
    ).toEqual([1600n, 1600n, 1600n, 1600n]);
  });

  it("is a node transaction's account, a freeze's update file, a reject's owner or else its payer", () => {
    expect(
      entityIds([
        { nodeCreate: { account_id: account } },
        { nodeUpdate: { node_id: 3 } },
        { freeze: { update_file: { fileNum: 150 } } },
        { tokenReject: { owner: account } },
        { tokenReject: {} },
      ]),
    ).toEqual([1600n, null, 150n, 1600n, BigInt(PAYER)]);
  });

  it('is the account of a live hash added or deleted', () => {
    expect(
      entityIds([
        { cryptoAddLiveHash: { liveHash: { accountId: account, hash: new Uint8Array(48) } } },
        { cryptoDeleteLiveHash: { accountOfLiveHash: account } },
      ]),
    ).toEqual([1600n, 1600n]);
  });

  it('is the account or contract that owns the hook of a HookStore', () => {
    expect(
      entityIds([
        { hook_store: { hook_id: { entity_id: { account_id: account }, hook_id: 1 } } },
        { hook_store: { hook_id: { entity_id: { contract_id: { contractNum: 1700 } }, hook_id: 2 } } },
      ]),
    ).toEqual([1600n, 1700n]);
  });
});
