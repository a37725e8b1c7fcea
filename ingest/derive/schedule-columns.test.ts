import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import { signEthereumCall } from '../../simulator/evm/ethereum-tx.ts';
import type { ParsedRecordFile, RawItem } from '../decode/record-file.ts';
import { parsedRecordFile } from '../testing/parsed-record-file.ts';
import { deriveRecordFile } from './record-file.ts';

const RELAY = 1001;
const SENDER = 1200;
const SCHEDULE = 1300;

/** An item as a record file gives it; the schedule create is the child of the Ethereum transaction when asked. */
function item(seconds: number, body: Record<string, unknown>, record: Record<string, unknown>, sigPair = []): RawItem {
  const types = hapi();
  const transactionID = { accountID: { accountNum: RELAY }, transactionValidStart: { seconds: seconds - 5 } };
  const bodyBytes = types.TransactionBody.encode(types.TransactionBody.fromObject({ transactionID, ...body })).finish();
  return {
    transaction: types.Transaction.fromObject({ bodyBytes, sigMap: { sigPair } }),
    record: types.TransactionRecord.fromObject({ consensusTimestamp: { seconds }, transactionID, ...record }),
  };
}

function derive(items: RawItem[]) {
  const file: ParsedRecordFile = parsedRecordFile(items);
  return deriveRecordFile(file, { index: 1n, loadStart: 0n, sidecars: [] }).rows;
}

const scheduleCreate = (seconds: number, record: Record<string, unknown> = {}, sigPair: never[] = []) =>
  item(
    seconds,
    { scheduleCreate: { memo: 'later', expiration_time: { seconds: 9000 }, scheduledTransactionBody: {} } },
    { receipt: { status: 22, scheduleID: { scheduleNum: SCHEDULE } }, ...record },
    sigPair,
  );

describe('a ScheduleCreate', () => {
  it("is the Ethereum sender's, payer and creator, when an Ethereum transaction's contract creates it", () => {
    const ethereum = (data: Uint8Array) =>
      item(
        100,
        { ethereumTransaction: { ethereum_data: data } },
        { receipt: { status: 22 }, contractCallResult: { sender_id: { accountNum: SENDER } } },
      );
    const signed = signEthereumCall(
      {
        type: 2,
        nonce: 0n,
        gasPrice: 1n,
        gasLimit: 50_000n,
        to: new Uint8Array(20).fill(2),
        value: 0n,
        data: new Uint8Array(),
      },
      new Uint8Array(32).fill(3),
    ).raw;
    const rows = derive([ethereum(signed), scheduleCreate(101, { parent_consensus_timestamp: { seconds: 100 } })]);
    expect(rows.replaces.get('schedule')?.[0]).toMatchObject({
      creator_account_id: BigInt(SENDER),
      payer_account_id: BigInt(SENDER),
    });
    // A parent whose data is no Ethereum transaction has none (RecordItem.getEthereumTransaction is null).
    const undecoded = derive([
      ethereum(new Uint8Array([1])),
      scheduleCreate(101, { parent_consensus_timestamp: { seconds: 100 } }),
    ]);
    expect(undecoded.replaces.get('schedule')?.[0]).toMatchObject({ creator_account_id: BigInt(RELAY) });
  });

  it("is the payer's otherwise, and leaves the entity's expiration unset (the schedule row has it)", () => {
    const rows = derive([scheduleCreate(100)]);
    expect(rows.replaces.get('schedule')?.[0]).toMatchObject({
      creator_account_id: BigInt(RELAY),
      expiration_time: 9_000_000_000_000n,
    });
    const entity = rows.changes.get('entity')?.find((c) => c.row.id === BigInt(SCHEDULE))?.row;
    expect(entity).toMatchObject({ type: 'SCHEDULE', memo: 'later' });
    expect(entity).not.toHaveProperty('expiration_timestamp');
  });

  it("stores each signature's type as its SignaturePair field number, as the reference REST reads it", () => {
    const prefix = (byte: number) => new Uint8Array([byte]);
    const sigPair = [
      { pubKeyPrefix: prefix(1), ed25519: new Uint8Array(64).fill(1) },
      { pubKeyPrefix: prefix(2), ECDSA_secp256k1: new Uint8Array(64).fill(2) },
      { pubKeyPrefix: prefix(3), contract: new Uint8Array(4).fill(3) },
      { pubKeyPrefix: prefix(1), ed25519: new Uint8Array(64).fill(4) },
    ] as never[];
    const signatures = derive([scheduleCreate(100, {}, sigPair)]).rows('transaction_signature');
    expect(signatures.map((s) => [Buffer.from(s.public_key_prefix as Uint8Array).toString('hex'), s.type])).toEqual([
      ['01', 3],
      ['02', 6],
      ['03', 2],
    ]);
  });
});
