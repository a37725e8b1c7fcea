/** Recursive Length Prefix coding (Ethereum's serialization): items are byte strings or lists of items. */
import { concatBytes } from '@ethereumjs/util';
import { FormatError } from './byte-reader.ts';

export type RlpItem = Uint8Array | RlpList;
export interface RlpList extends ReadonlyArray<RlpItem> {
  /** The encoded bytes of this list, prefix included (stored verbatim for access and authorization lists). */
  readonly raw?: Uint8Array;
}

function length(bytes: Uint8Array, at: number, size: number): number {
  if (at + size > bytes.length) throw new FormatError('RLP length runs past the end');
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + (bytes[at + i] as number);
  return value;
}

/**
 * Lists nested deeper than this are refused. Ethereum transactions nest four deep at most (access list entries'
 * storage keys); without a bound, a payload of a few ten kilobytes of list prefixes overflows the call stack.
 */
const MAX_DEPTH = 64;

function decodeAt(bytes: Uint8Array, at: number, depth: number): { item: RlpItem; end: number } {
  const prefix = bytes[at];
  if (prefix === undefined) throw new FormatError('RLP item missing');
  if (prefix < 0x80) return { item: bytes.subarray(at, at + 1), end: at + 1 };
  if (prefix < 0xc0) {
    const long = prefix > 0xb7;
    const lengthSize = long ? prefix - 0xb7 : 0;
    const size = long ? length(bytes, at + 1, lengthSize) : prefix - 0x80;
    const start = at + 1 + lengthSize;
    if (start + size > bytes.length) throw new FormatError('RLP string runs past the end');
    return { item: bytes.subarray(start, start + size), end: start + size };
  }
  const long = prefix > 0xf7;
  const lengthSize = long ? prefix - 0xf7 : 0;
  const size = long ? length(bytes, at + 1, lengthSize) : prefix - 0xc0;
  const start = at + 1 + lengthSize;
  const end = start + size;
  if (end > bytes.length) throw new FormatError('RLP list runs past the end');
  if (depth >= MAX_DEPTH) throw new FormatError(`RLP lists nested deeper than ${MAX_DEPTH}`);
  const items: RlpItem[] = [];
  let cursor = start;
  while (cursor < end) {
    const next = decodeAt(bytes, cursor, depth + 1);
    items.push(next.item);
    cursor = next.end;
  }
  return { item: Object.assign(items, { raw: bytes.subarray(at, end) }), end };
}

export function decodeRlp(bytes: Uint8Array): RlpItem {
  const { item, end } = decodeAt(bytes, 0, 0);
  if (end !== bytes.length) throw new FormatError('bytes after the RLP item');
  return item;
}

function lengthPrefix(size: number, offset: number): Uint8Array {
  if (size < 56) return Uint8Array.of(offset + size);
  const digits: number[] = [];
  for (let rest = size; rest > 0; rest = Math.floor(rest / 256)) digits.unshift(rest % 256);
  return Uint8Array.of(offset + 55 + digits.length, ...digits);
}

/** The canonical encoding of an item: shortest length prefixes, a single byte below 0x80 as itself. */
export function encodeRlp(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && (item[0] as number) < 0x80) return item;
    return concatBytes(lengthPrefix(item.length, 0x80), item);
  }
  const parts = item.map(encodeRlp);
  return concatBytes(
    lengthPrefix(
      parts.reduce((n, part) => n + part.length, 0),
      0xc0,
    ),
    ...parts,
  );
}
