import { describe, expect, it } from 'vitest';
import { exchangeRateSetBytes, feeScheduleBytes } from '../../test/harness/factories-network.ts';
import { CURRENT_AND_NEXT_FEE_SCHEDULE, EXCHANGE_RATE_SET } from '../routes/network/system-file-schemas.ts';
import { decodeMessage, ProtobufError } from './protobuf-strict.ts';

const hex = (text: string) => Uint8Array.from(Buffer.from(text.replace(/\s/g, ''), 'hex'));
const rates = exchangeRateSetBytes(
  { hbars: 30000, cents: 580000, expiration: 1759951090 },
  { hbars: 30000, cents: 590000, expiration: 1759954690 },
);

describe('decodeMessage', () => {
  it('decodes an exchange rate set', () => {
    expect(decodeMessage(rates, EXCHANGE_RATE_SET)).toEqual({
      currentRate: { hbarEquiv: 30000, centEquiv: 580000, expirationTime: { seconds: 1759951090n } },
      nextRate: { hbarEquiv: 30000, centEquiv: 590000, expirationTime: { seconds: 1759954690n } },
    });
  });

  it('decodes a fee schedule with repeated entries', () => {
    const bytes = feeScheduleBytes(
      {
        expiry: 5,
        gas: [
          [6, 852000],
          [7, 1068000],
        ],
      },
      { expiry: 6, gas: [] },
    );
    const decoded = decodeMessage(bytes, CURRENT_AND_NEXT_FEE_SCHEDULE);
    expect(decoded.currentFeeSchedule).toEqual({
      expiryTime: { seconds: 5n },
      transactionFeeSchedule: [
        { hederaFunctionality: 6, fees: [{ servicedata: { gas: 852000n } }] },
        { hederaFunctionality: 7, fees: [{ servicedata: { gas: 1068000n } }] },
      ],
    });
    expect(decoded.nextFeeSchedule).toEqual({ expiryTime: { seconds: 6n } });
  });

  it('decodes nothing as an empty message, leaving unset messages absent', () => {
    expect(decodeMessage(new Uint8Array(0), EXCHANGE_RATE_SET)).toEqual({});
  });

  it('merges a message given twice: scalars last, messages merged, repeated fields appended', () => {
    const full = exchangeRateSetBytes({ hbars: 1, cents: 2, expiration: 3 }, { hbars: 4, cents: 5, expiration: 6 });
    const second = full.subarray(0, 2 + (full[1] as number)); // only its current rate (field 1)
    const decoded = decodeMessage(Uint8Array.from([...rates, ...second]), EXCHANGE_RATE_SET);
    expect(decoded.currentRate).toEqual({ hbarEquiv: 1, centEquiv: 2, expirationTime: { seconds: 3n } });
    expect(decoded.nextRate).toMatchObject({ centEquiv: 590000 });
    const schedule = feeScheduleBytes({ expiry: 5, gas: [[6, 1]] }, { expiry: 6, gas: [] });
    const twice = decodeMessage(Uint8Array.from([...schedule, ...schedule]), CURRENT_AND_NEXT_FEE_SCHEDULE);
    expect(twice.currentFeeSchedule).toMatchObject({ transactionFeeSchedule: [{}, {}] });
  });

  it('keeps the low 32 bits of an oversized int32 and reads int64 as signed', () => {
    // hbarEquiv = 2^32 + 7; expirationTime.seconds = -1
    const bytes = hex('0a 13 08 8780808010 1a 0b 08 ffffffffffffffffff01');
    expect(decodeMessage(bytes, EXCHANGE_RATE_SET)).toEqual({
      currentRate: { hbarEquiv: 7, expirationTime: { seconds: -1n } },
    });
  });

  it('skips unknown fields, well-formed groups, and known fields of another wire type', () => {
    const bytes = hex(
      `
      28 05            # field 5 varint
      31 0102030405060708
      3d 01020304
      43 08 01 44      # group 8 holding a varint
      08 01            # field 1 (a message) as a varint: unknown
      0a 02 10 0c      # currentRate.centEquiv = 12
    `.replace(/#.*$/gm, ''),
    );
    expect(decodeMessage(bytes, EXCHANGE_RATE_SET)).toEqual({ currentRate: { centEquiv: 12 } });
  });

  it.each([
    ['a truncated length', '0a 05 08 01'],
    ['a truncated varint', '0a 02 08 80'],
    ['a truncated fixed64', '31 0102'],
    ['a zero tag', '00 01'],
    ['wire type 6', '0e'],
    ['wire type 7', '0f 00'],
    ['an end-group tag at the top', '0c'],
    ['an end-group tag inside a message', '0a 01 0c'],
    ['a group that does not end', '43 08 01'],
    ['a group ended by another number', '43 4c'],
    ['a varint of eleven bytes', '28 ffffffffffffffffffff01'],
    ['a negative length', '2a ffffffff0f'],
    ['a malformed nested message', '0a 03 1a 01 0f'],
  ])('refuses %s', (_name, bytes) => {
    expect(() => decodeMessage(hex(bytes), EXCHANGE_RATE_SET)).toThrow(ProtobufError);
  });

  it('refuses nesting beyond 100 levels', () => {
    const depth = (n: number): string => (n === 0 ? '' : `43${depth(n - 1)}44`);
    expect(() => decodeMessage(hex(depth(100)), EXCHANGE_RATE_SET)).not.toThrow();
    expect(() => decodeMessage(hex(depth(101)), EXCHANGE_RATE_SET)).toThrow(ProtobufError);
  });
});
