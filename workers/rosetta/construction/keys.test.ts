import { PrivateKey } from '@hiero-ledger/sdk';
import { describe, expect, it } from 'vitest';
import { goHexDecode } from '../go-json/hex.ts';
import { sdkAccountIdFromString, sdkAccountText } from './accounts.ts';
import { publicKeyDerHex, publicKeyFromBytes, publicKeyFromString } from './keys.ts';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

describe("public keys as the reference's Go SDK reads them", () => {
  const ed = PrivateKey.generateED25519().publicKey;
  const ecdsa = PrivateKey.generateECDSA().publicKey;

  it('reads an ED25519 key raw or in DER, and an ECDSA key compressed, in DER or in the legacy DER', () => {
    for (const text of [ed.toStringRaw(), ed.toStringDer()]) {
      expect(publicKeyFromString(text)).toEqual({ curve: 'edwards25519', raw: bytes(ed.toStringRaw()) });
    }
    const legacy = `302d300706052b8104000a032200${ecdsa.toStringRaw()}`;
    for (const text of [ecdsa.toStringRaw(), ecdsa.toStringDer(), legacy]) {
      expect(publicKeyFromString(text)).toEqual({ curve: 'secp256k1', raw: bytes(ecdsa.toStringRaw()) });
    }
  });

  it("prints each key as the Go SDK's String(): its DER in hex (ECDSA with the named-curve form, not the legacy one)", () => {
    expect(publicKeyDerHex(publicKeyFromString(ed.toStringRaw()) as never)).toBe(ed.toStringDer());
    expect(publicKeyDerHex(publicKeyFromString(ecdsa.toStringRaw()) as never)).toBe(
      `3036301006072a8648ce3d020106052b8104000a032200${ecdsa.toStringRaw()}`,
    );
  });

  it('refuses lengths it does not know, a point off the curve, and hex with a prefix', () => {
    expect(publicKeyFromBytes(new Uint8Array(31))).toBeUndefined();
    expect(publicKeyFromBytes(bytes(`02${'ff'.repeat(32)}`))).toBeUndefined();
    expect(publicKeyFromString(`0x${ed.toStringRaw()}`)).toBeUndefined();
  });
});

describe("Go's hex.DecodeString", () => {
  it('names the first bad byte of a pair, then an odd length, as Go does', () => {
    expect(goHexDecode('0x12')).toBe("encoding/hex: invalid byte: U+0078 'x'");
    expect(goHexDecode('ab\n')).toBe('encoding/hex: invalid byte: U+000A');
    expect(goHexDecode('abc')).toBe('encoding/hex: odd length hex string');
    expect(goHexDecode('é')).toBe("encoding/hex: invalid byte: U+00C3 'Ã'");
    expect(goHexDecode('ABcd')).toEqual(Uint8Array.from([0xab, 0xcd]));
  });
});

describe("account ids as the Go SDK's AccountIDFromString reads them", () => {
  it('reads shard.realm.num with a checksum ignored, an EVM address, and an alias after shard.realm', () => {
    expect(sdkAccountIdFromString('0.0.3')).toEqual({ shard: 0n, realm: 0n, num: 3n });
    expect(sdkAccountIdFromString('1.2.3-abcde')).toEqual({ shard: 1n, realm: 2n, num: 3n });
    expect(sdkAccountIdFromString(`0x${'11'.repeat(20)}`)).toEqual({
      shard: 0n,
      realm: 0n,
      num: 0n,
      alias: bytes('11'.repeat(20)),
    });
    const key = PrivateKey.generateED25519().publicKey;
    const aliased = sdkAccountIdFromString(`0.0.${key.toStringDer()}`);
    expect(aliased?.alias).toEqual(bytes(`1220${key.toStringRaw()}`));
    expect(sdkAccountText(aliased as never)).toBe(`0.0.${key.toStringDer()}`);
  });

  it('refuses what the SDK refuses', () => {
    for (const text of ['3', '0.0', '0.0.x', '0.0.1.2', 'a.0.3', ''])
      expect(sdkAccountIdFromString(text), text).toBeUndefined();
  });
});
