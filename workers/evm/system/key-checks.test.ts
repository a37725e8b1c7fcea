import { describe, expect, it } from 'vitest';
import { longZeroAddress } from '../addresses.ts';
import { keySatisfied } from './key-checks.ts';

/** Protobuf Key bytes: a length-delimited field around `body`. */
const field = (number: number, body: number[]) => [(number << 3) | 2, body.length, ...body];
const contractKey = (num: number) => field(1, [0x18, num]);
const delegatableKey = (num: number) => field(8, [0x18, num]);
const ed25519Key = (byte: number) => field(2, Array(32).fill(byte));
const keyList = (...keys: number[][]) =>
  field(
    6,
    keys.flatMap((key) => field(1, key)),
  );
const threshold = (n: number, ...keys: number[][]) =>
  field(5, [
    0x08,
    n,
    ...field(
      2,
      keys.flatMap((key) => field(1, key)),
    ),
  ]);
const bytes = (key: number[]) => new Uint8Array(key);

const CALLER = 100;
const signers = { contract: [longZeroAddress(BigInt(CALLER))], delegated: false, originKey: bytes(ed25519Key(7)) };

describe('keySatisfied', () => {
  it('takes a contract id or delegatable contract id key naming the calling contract, and no other', () => {
    expect(keySatisfied(bytes(contractKey(CALLER)), signers)).toBe(true);
    expect(keySatisfied(bytes(delegatableKey(CALLER)), signers)).toBe(true);
    expect(keySatisfied(bytes(contractKey(CALLER + 1)), signers)).toBe(false);
  });

  it('takes only the delegatable contract id key of a calling contract that runs delegated code', () => {
    const delegated = { ...signers, delegated: true };
    expect(keySatisfied(bytes(contractKey(CALLER)), delegated)).toBe(false);
    expect(keySatisfied(bytes(delegatableKey(CALLER)), delegated)).toBe(true);
  });

  it('takes a primitive key only when it is the request sender’s own', () => {
    expect(keySatisfied(bytes(ed25519Key(7)), signers)).toBe(true);
    expect(keySatisfied(bytes(ed25519Key(8)), signers)).toBe(false);
    expect(keySatisfied(bytes(ed25519Key(7)), { ...signers, originKey: undefined })).toBe(false);
  });

  it('needs every key of a key list and the threshold of a threshold key', () => {
    expect(keySatisfied(bytes(keyList(contractKey(CALLER), ed25519Key(7))), signers)).toBe(true);
    expect(keySatisfied(bytes(keyList(contractKey(CALLER), ed25519Key(8))), signers)).toBe(false);
    expect(keySatisfied(bytes(threshold(1, contractKey(CALLER), ed25519Key(8))), signers)).toBe(true);
    expect(keySatisfied(bytes(threshold(2, contractKey(CALLER), ed25519Key(8))), signers)).toBe(false);
  });

  it('takes no absent, empty or malformed key', () => {
    expect(keySatisfied(undefined, signers)).toBe(false);
    expect(keySatisfied(new Uint8Array(), signers)).toBe(false);
    expect(keySatisfied(new Uint8Array([0x0a, 0x7f]), signers)).toBe(false);
  });
});
