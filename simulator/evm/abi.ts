/** The little ABI encoding the simulator's contract calls need: selectors, uint256 / address words, strings, bloom. */
import { readFileSync } from 'node:fs';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '../../common/concat-bytes.ts';

export interface ContractArtifact {
  readonly initcode: string;
  readonly runtime: string;
  readonly methods: Readonly<Record<string, string>>;
}

const artifacts = JSON.parse(readFileSync(new URL('./contracts/artifacts.json', import.meta.url), 'utf8')) as {
  contracts: Record<string, ContractArtifact>;
};

export function artifact(name: 'SimToken' | 'Counter' | 'HtsCaller'): ContractArtifact {
  const found = artifacts.contracts[name];
  if (!found) throw new Error(`no compiled contract ${name}`);
  return found;
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex'));
}

export function word(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  new DataView(out.buffer).setBigUint64(24, value & 0xffffffffffffffffn);
  new DataView(out.buffer).setBigUint64(16, (value >> 64n) & 0xffffffffffffffffn);
  return out;
}

export function addressWord(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(address, 12);
  return out;
}

/** Call data: the method's selector from the artifact, then the static argument words. */
export function callData(contract: ContractArtifact, signature: string, args: readonly Uint8Array[]): Uint8Array {
  const selector = contract.methods[signature];
  if (!selector) throw new Error(`no method ${signature}`);
  return concatBytes([fromHex(selector), ...args]);
}

/** A string's ABI tail: its byte length, then its UTF-8 bytes padded to whole words. */
export function stringTail(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const padded = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
  padded.set(bytes);
  return concatBytes([word(BigInt(bytes.length)), padded]);
}

/** The string whose tail starts at `at` in `data`. */
export function readString(data: Uint8Array, at: number): string {
  const length = Number(readUint(data.subarray(at, at + 32)));
  return new TextDecoder().decode(data.subarray(at + 32, at + 32 + length));
}

/** ABI encoding of (string, string, uint256), SimToken's constructor arguments. */
export function encodeStringsAndUint(a: string, b: string, value: bigint): Uint8Array {
  const first = stringTail(a);
  const second = stringTail(b);
  return concatBytes([word(96n), word(96n + BigInt(first.length)), word(value), first, second]);
}

export function readUint(output: Uint8Array): bigint {
  return output.length === 0 ? 0n : BigInt(`0x${Buffer.from(output).toString('hex')}`);
}

/** Ethereum's 2048-bit log bloom over a log's address and topics. */
export function bloomOf(entries: readonly Uint8Array[], into = new Uint8Array(256)): Uint8Array {
  for (const entry of entries) {
    const hash = keccak_256(entry);
    for (let i = 0; i < 6; i += 2) {
      const bit = (((hash[i] ?? 0) << 8) | (hash[i + 1] ?? 0)) & 2047;
      const at = 255 - (bit >> 3);
      into[at] = (into[at] ?? 0) | (1 << (bit & 7));
    }
  }
  return into;
}

/** Bytes with leading zeros removed, as sidecars store slots and values. */
export function trimmed(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return bytes.subarray(start);
}
