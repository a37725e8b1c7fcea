import { describe, expect, it } from 'vitest';
import { type EthereumType, signEthereumCall } from '../../simulator/evm/ethereum-tx.ts';
import { decodeRlp, encodeRlp, type RlpItem } from '../decode/rlp.ts';
import { decodeHexContents, hashWithCallData } from './call-data-file.ts';

const KEY = new Uint8Array(32).fill(0x22);
const TO = new Uint8Array(20).fill(0xcd);
const DATA_AT: Record<EthereumType, number> = { 0: 5, 1: 6, 2: 7, 4: 7 };
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** A signed call and the same bytes with the data field emptied, as a sender who moved the data into a file sends. */
function signedAndStripped(
  type: EthereumType,
  data: Uint8Array,
): { signed: ReturnType<typeof signEthereumCall>; stripped: Uint8Array } {
  const signed = signEthereumCall(
    { type, nonce: 7n, gasPrice: 10n ** 12n, gasLimit: 400_000n, to: TO, value: 0n, data },
    KEY,
  );
  const typed = type !== 0;
  const fields = decodeRlp(typed ? signed.raw.subarray(1) : signed.raw) as readonly RlpItem[];
  const body = encodeRlp(fields.map((field, i) => (i === DATA_AT[type] ? new Uint8Array() : field)));
  return { signed, stripped: typed ? Uint8Array.of(type, ...body) : body };
}

describe('the hash of an Ethereum transaction with its call data in a file', () => {
  it('is the hash of the signed transaction with the data restored, for every type', () => {
    const data = new Uint8Array(300).map((_, i) => i % 251);
    for (const type of [0, 1, 2, 4] as const) {
      const { signed, stripped } = signedAndStripped(type, data);
      expect([type, hex(hashWithCallData(stripped, data))]).toEqual([type, hex(signed.hash)]);
    }
  });

  it('is empty when the transaction has an access list (the importer does not re-encode those)', () => {
    const { stripped } = signedAndStripped(2, Uint8Array.of(1));
    const fields = decodeRlp(stripped.subarray(1)) as readonly RlpItem[];
    const withAccessList = fields.map((field, i) => (i === 8 ? [[TO, []]] : field));
    expect(hashWithCallData(Uint8Array.of(2, ...encodeRlp(withAccessList)), Uint8Array.of(1))).toEqual(
      new Uint8Array(),
    );
  });

  it('is empty when the signed bytes are not an Ethereum transaction', () => {
    expect(hashWithCallData(Uint8Array.of(3, 0xc0), Uint8Array.of(1))).toEqual(new Uint8Array());
    expect(hashWithCallData(Uint8Array.of(2, 0xc1), Uint8Array.of(1))).toEqual(new Uint8Array());
  });
});

describe("a call data file's contents, decoded as the importer decodes them", () => {
  const text = (s: string) => new TextEncoder().encode(s);

  it('reads hex digits of either case after an optional 0x, skipping spaces, tabs and line breaks', () => {
    expect(decodeHexContents(text('0xdeAD 01\r\n\t'))).toEqual(Uint8Array.of(0xde, 0xad, 0x01));
    expect(decodeHexContents(text('c0ffee'))).toEqual(Uint8Array.of(0xc0, 0xff, 0xee));
    expect(decodeHexContents(text(''))).toEqual(new Uint8Array());
  });

  it('refuses other characters, an odd number of digits, and a 0X or inner 0x prefix', () => {
    for (const bad of ['0xabc', 'zz', '0Xab', 'ab0xcd', '0x0x'])
      expect([bad, decodeHexContents(text(bad))]).toEqual([bad, undefined]);
    expect(decodeHexContents(Uint8Array.of(0xde, 0xad))).toBeUndefined();
  });
});
