/**
 * The Solidity ABI encoding the system contracts answer with, and the argument reading they need. Values are a small
 * tree: static words (ints, bools, addresses), dynamic byte strings, tuples and dynamic arrays; a tuple is dynamic
 * when one of its members is.
 */
import { concatBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hexOfBytes } from '../../../db/bytea.ts';

export type AbiValue =
  | { readonly kind: 'word'; readonly value: Uint8Array }
  | { readonly kind: 'bytes'; readonly value: Uint8Array }
  | { readonly kind: 'tuple'; readonly members: readonly AbiValue[] }
  | { readonly kind: 'array'; readonly items: readonly AbiValue[] };

const WORD = 32;
const TWO_256 = 1n << 256n;

/** A signed or unsigned integer as a 32-byte two's complement word. */
export function int(value: bigint): AbiValue {
  return { kind: 'word', value: wordOf(value) };
}

export const bool = (value: boolean): AbiValue => int(value ? 1n : 0n);

export function address(value: Uint8Array): AbiValue {
  const word = new Uint8Array(WORD);
  word.set(value.subarray(0, 20), WORD - 20);
  return { kind: 'word', value: word };
}

export const bytes = (value: Uint8Array): AbiValue => ({ kind: 'bytes', value });

export const string = (value: string): AbiValue => bytes(new TextEncoder().encode(value));

export const tuple = (...members: AbiValue[]): AbiValue => ({ kind: 'tuple', members });

export const array = (items: readonly AbiValue[]): AbiValue => ({ kind: 'array', items });

function wordOf(value: bigint): Uint8Array {
  let rest = value < 0n ? TWO_256 + value : value;
  const word = new Uint8Array(WORD);
  for (let i = WORD - 1; i >= 0 && rest > 0n; i--) {
    word[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return word;
}

const isDynamic = (value: AbiValue): boolean =>
  value.kind === 'bytes' || value.kind === 'array' || (value.kind === 'tuple' && value.members.some(isDynamic));

/** The encoding of a sequence as a tuple: heads (static values inline, offsets for dynamic ones), then the tails. */
function encodeSequence(values: readonly AbiValue[]): Uint8Array {
  const heads: Uint8Array[] = [];
  const tails: Uint8Array[] = [];
  const headSize = values.reduce((n, value) => n + (isDynamic(value) ? WORD : encodeValue(value).length), 0);
  let tailOffset = headSize;
  for (const value of values) {
    const encoded = encodeValue(value);
    if (isDynamic(value)) {
      heads.push(wordOf(BigInt(tailOffset)));
      tails.push(encoded);
      tailOffset += encoded.length;
    } else {
      heads.push(encoded);
    }
  }
  return concatBytes(...heads, ...tails);
}

function encodeValue(value: AbiValue): Uint8Array {
  switch (value.kind) {
    case 'word':
      return value.value;
    case 'bytes': {
      const padded = new Uint8Array(Math.ceil(value.value.length / WORD) * WORD);
      padded.set(value.value);
      return concatBytes(wordOf(BigInt(value.value.length)), padded);
    }
    case 'tuple':
      return encodeSequence(value.members);
    case 'array':
      return concatBytes(wordOf(BigInt(value.items.length)), encodeSequence(value.items));
  }
}

/** A function's return data: its outputs encoded as one tuple. */
export const encode = (...values: AbiValue[]): Uint8Array => encodeSequence(values);

/** The 4-byte selector of a canonical signature such as `balanceOf(address)`, as a number. */
export function selectorOf(signature: string): number {
  const hash = keccak_256(new TextEncoder().encode(signature));
  return new DataView(hash.buffer, hash.byteOffset, 4).getUint32(0);
}

export class AbiDecodeError extends Error {
  override readonly name = 'AbiDecodeError';
}

/** Reads the arguments after a selector; every read checks its bounds and throws AbiDecodeError past the end. */
export class AbiArgs {
  private readonly data: Uint8Array;

  /** `data` without the selector. */
  constructor(data: Uint8Array) {
    this.data = data;
  }

  private word(index: number): Uint8Array {
    return this.wordAt(index * WORD);
  }

  private wordAt(offset: number): Uint8Array {
    if (offset < 0 || offset + WORD > this.data.length) throw new AbiDecodeError('argument out of range');
    return this.data.subarray(offset, offset + WORD);
  }

  uint(index: number): bigint {
    let value = 0n;
    for (const byte of this.word(index)) value = (value << 8n) | BigInt(byte);
    return value;
  }

  /** A signed integer of `bits` bits; a word that does not sign-extend cleanly is rejected, as Solidity does. */
  int(index: number, bits = 256): bigint {
    const raw = this.uint(index);
    const value = raw >= 1n << 255n ? raw - TWO_256 : raw;
    const limit = 1n << BigInt(bits - 1);
    if (value < -limit || value >= limit) throw new AbiDecodeError('integer out of range');
    return value;
  }

  /** An address argument: its 12 leading bytes must be zero. */
  address(index: number): Uint8Array {
    const word = this.word(index);
    if (word.subarray(0, 12).some((byte) => byte !== 0)) throw new AbiDecodeError('dirty address');
    return word.slice(12);
  }

  bool(index: number): boolean {
    const value = this.uint(index);
    if (value > 1n) throw new AbiDecodeError('dirty bool');
    return value === 1n;
  }

  /** The dynamic tuple (or array body, after its length word) whose offset is in head slot `index`. */
  tuple(index: number, skip = 0): AbiArgs {
    const offset = this.uint(index);
    if (offset + BigInt(skip) > BigInt(this.data.length)) throw new AbiDecodeError('offset out of range');
    return new AbiArgs(this.data.subarray(Number(offset) + skip));
  }

  /** The length and the elements of the dynamic array whose offset is in head slot `index`. */
  array(index: number): { length: number; items: AbiArgs } {
    const length = Number(this.tuple(index).uint(0));
    return { length, items: this.tuple(index, WORD) };
  }

  /** A dynamic `bytes` argument whose offset is in head slot `index`. */
  bytes(index: number): Uint8Array {
    const offset = this.uint(index);
    if (offset > BigInt(this.data.length)) throw new AbiDecodeError('offset out of range');
    const length = BigInt(`0x${hexOfBytes(this.wordAt(Number(offset)))}`);
    const start = Number(offset) + WORD;
    if (BigInt(start) + length > BigInt(this.data.length)) throw new AbiDecodeError('bytes out of range');
    return this.data.slice(start, start + Number(length));
  }
}

/** The selector at the start of calldata, as a number; undefined for fewer than four bytes. */
export const leadingSelector = (data: Uint8Array): number | undefined =>
  data.length < 4 ? undefined : new DataView(data.buffer, data.byteOffset, 4).getUint32(0);
