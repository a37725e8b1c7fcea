import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Long from 'long';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import { RECORDSTREAMS } from '../testing/fixtures.ts';
import { keptSerialized, toPlain } from './plain.ts';
import { decodePlain, PlainDecoder } from './plain-decoder.ts';
import { parseRecordFile } from './record-file.ts';

/** Every record file of the shared fixtures (all versions), one node's copy. */
function fixtureFiles(): string[] {
  const out: string[] = [];
  for (const folder of readdirSync(RECORDSTREAMS)) {
    const nodes = readdirSync(path.join(RECORDSTREAMS, folder)).filter((n) => n.startsWith('record'));
    const node = path.join(RECORDSTREAMS, folder, nodes[0] as string);
    for (const name of readdirSync(node)) {
      if (/\.rcd(\.gz)?$/.test(name)) out.push(path.join(node, name));
    }
  }
  return out;
}

/** The old path: a protobufjs message turned plain. */
function viaProtobufjs(type: protobuf.Type, bytes: Uint8Array): unknown {
  return toPlain(type.decode(bytes));
}

describe('decodePlain', () => {
  const types = hapi();

  it('decodes every fixture transaction, body and record exactly as toPlain(decode) does, key order included', () => {
    let items = 0;
    for (const file of fixtureFiles()) {
      const parsed = parseRecordFile(path.basename(file), new Uint8Array(readFileSync(file)));
      for (const item of parsed.items) {
        const record = item.record as Uint8Array;
        const transaction = item.transaction as Uint8Array;
        expect(record).toBeInstanceOf(Uint8Array);
        const pairs: [protobuf.Type, Uint8Array][] = [
          [types.TransactionRecord, record],
          [types.Transaction, transaction],
        ];
        const tx = types.Transaction.decode(transaction) as unknown as {
          signedTransactionBytes?: Uint8Array;
          bodyBytes?: Uint8Array;
        };
        if (tx.signedTransactionBytes?.length) {
          pairs.push([types.SignedTransaction, tx.signedTransactionBytes]);
          const signed = types.SignedTransaction.decode(tx.signedTransactionBytes) as unknown as {
            bodyBytes: Uint8Array;
          };
          pairs.push([types.TransactionBody, signed.bodyBytes]);
        } else if (tx.bodyBytes?.length) {
          pairs.push([types.TransactionBody, tx.bodyBytes]);
        }
        for (const [type, bytes] of pairs) {
          const expected = viaProtobufjs(type, bytes) as Record<string, unknown>;
          const actual = decodePlain(type, bytes);
          // The deprecated `body` of a Transaction stays raw: decoded, it is the old plain value.
          if (type === types.Transaction && actual.body instanceof Uint8Array) {
            actual.body = toPlain(types.TransactionBody.decode(actual.body));
          }
          expect(actual).toStrictEqual(expected);
          expect(JSON.stringify(Object.keys(actual))).toBe(JSON.stringify(Object.keys(expected)));
        }
        items++;
      }
    }
    expect(items).toBeGreaterThan(100);
  });

  it('reads every 64-bit kind at its extremes as the exact bigint', () => {
    const root = protobuf.Root.fromJSON({
      nested: {
        Wide: {
          fields: {
            i: { type: 'int64', id: 1 },
            u: { type: 'uint64', id: 2 },
            s: { type: 'sint64', id: 3 },
            f: { type: 'fixed64', id: 4 },
            sf: { type: 'sfixed64', id: 5 },
            packed: { rule: 'repeated', type: 'int64', id: 6 },
            loose: { rule: 'repeated', type: 'sint64', id: 7, options: { packed: false } },
          },
        },
      },
    });
    const Wide = root.lookupType('Wide');
    const decoder = new PlainDecoder(keptSerialized());
    const signedValues = ['0', '1', '-1', '562949953421311', '562949953421312', '-562949953421313', '9007199254740993'];
    signedValues.push('9223372036854775807', '-9223372036854775808', '4294967296', '-4294967296', '2147483648');
    const unsignedValues = ['0', '1', '4294967295', '9007199254740993', '18446744073709551615', '9223372036854775808'];
    for (const text of signedValues) {
      const value = Long.fromString(text);
      const message = Wide.fromObject({ i: value, s: value, sf: value, packed: [value, value], loose: [value] });
      const bytes = Wide.encode(message).finish();
      expect(decoder.decode(Wide, bytes)).toStrictEqual(viaProtobufjs(Wide, bytes));
      expect(decoder.decode(Wide, bytes).i).toBe(BigInt(text));
    }
    for (const text of unsignedValues) {
      const value = Long.fromString(text, true);
      const bytes = Wide.encode(Wide.fromObject({ u: value, f: value })).finish();
      expect(decoder.decode(Wide, bytes)).toStrictEqual(viaProtobufjs(Wide, bytes));
      expect(decoder.decode(Wide, bytes).u).toBe(BigInt(text));
    }
  });

  it('fails on truncated input as protobufjs does', () => {
    const bytes = types.TransactionRecord.encode(
      types.TransactionRecord.fromObject({ transactionFee: Long.fromString('-5'), memo: 'x' }),
    ).finish();
    const cut = bytes.subarray(0, bytes.length - 3);
    expect(() => types.TransactionRecord.decode(cut)).toThrow(/index out of range/);
    expect(() => decodePlain(types.TransactionRecord, cut)).toThrow(/index out of range/);
  });
});
