import { describe, expect, it } from 'vitest';
import { longZeroAddress } from '../ledger/ids.ts';
import {
  htsBurnNftsCallData,
  htsMintNftsCallData,
  htsTransferNftsCallData,
  htsTransferTokensCallData,
  htsWipeNftsCallData,
  MINT_NFT_GAS,
  nftTransferGas,
} from './hts-functions.ts';

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
const w = (value: number | bigint) => BigInt(value).toString(16).padStart(64, '0');
const TOKEN = longZeroAddress(0x4d2n);
const token = w(0x4d2);

describe('NFT calls to 0x167', () => {
  it('encodes mintToken with metadata as the ABI lays out bytes[]: offsets from the first offset word', () => {
    const data = htsMintNftsCallData(TOKEN, [Uint8Array.of(0xab), new Uint8Array(33).fill(1)]);
    expect(hex(data.subarray(4))).toBe(
      [
        token,
        w(0),
        w(0x60),
        w(2),
        w(0x40),
        w(0x80),
        w(1),
        `ab${'00'.repeat(31)}`,
        w(33),
        `${'01'.repeat(33)}${'00'.repeat(31)}`,
      ].join(''),
    );
  });

  it('encodes burnToken and wipeTokenAccountNFT with serials, and transferNFTs with three parallel arrays', () => {
    expect(hex(htsBurnNftsCallData(TOKEN, [3n, 5n]).subarray(4))).toBe(
      [token, w(0), w(0x60), w(2), w(3), w(5)].join(''),
    );
    const [from, to] = [longZeroAddress(1001n), longZeroAddress(1002n)];
    expect(hex(htsWipeNftsCallData(TOKEN, from, [4n]).subarray(4))).toBe(
      [token, w(1001), w(0x60), w(1), w(4)].join(''),
    );
    const data = htsTransferNftsCallData(TOKEN, [{ from, to, serial: 7n }]);
    expect(hex(data.subarray(4))).toBe(
      [token, w(0x80), w(0xc0), w(0x100), w(1), w(1001), w(1), w(1002), w(1), w(7)].join(''),
    );
  });

  it('encodes transferTokens with the debit as an int64 in two’s complement over the whole word', () => {
    const [from, to] = [longZeroAddress(1001n), longZeroAddress(1002n)];
    const data = htsTransferTokensCallData(TOKEN, [
      { account: from, amount: -3n },
      { account: to, amount: 3n },
    ]);
    expect(hex(data.subarray(4))).toBe(
      [token, w(0x60), w(0xc0), w(2), w(1001), w(1002), w(2), `${'ff'.repeat(31)}fd`, w(3)].join(''),
    );
  });

  it('prices a mint of NFTs at $0.02 and a transfer at $0.001 a serial, as gas plus a fifth', () => {
    // The price rounded up to whole gas: (200,000,000 + 851,999) * 1000 / 852,000 = 235,741, plus 47,148.
    expect(MINT_NFT_GAS).toBe(282_889n);
    // (20,000,000 + 851,999) * 1000 / 852,000 = 24,474, plus 4,894.
    expect(nftTransferGas(2)).toBe(29_368n);
  });
});
