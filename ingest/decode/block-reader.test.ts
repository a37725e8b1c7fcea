import { readFileSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import { STREAMS } from '../testing/fixtures.ts';
import { blockNumberOfKey, decompressBlock, splitBlockItems, splitBlockPath } from './block-file.ts';
import { readBlock, type WrappedRecordFile } from './block-reader.ts';
import { recordFileNameOf, unwrapRecordFile } from './block-wrapped.ts';
import { FormatError } from './byte-reader.ts';
import { toHex } from './hash.ts';
import { decodeRecordItem } from './record-item.ts';

const BLOCKS = path.join(STREAMS, 'data/blockstreams');
const WRBS = path.join(STREAMS, 'data/wrbs');

function read(root: string, number: bigint) {
  const key = splitBlockPath(number, '.blk.zstd');
  const bytes = new Uint8Array(readFileSync(path.join(root, key)));
  return readBlock(key, splitBlockItems(decompressBlock(bytes)), bytes.length);
}

describe('native blocks', () => {
  it('recomputes the root hashes of blocks 7 and 8, which chain', () => {
    const seven = read(BLOCKS, 7n);
    const eight = read(BLOCKS, 8n);
    expect(toHex(seven.previousHash)).toBe(
      'e11e44567f5ca4ae23b75467b75d83c8880d0888f5c4154f08b8f221bf269b2e4f3f1686e8dcb9694beaaf287313b0fb',
    );
    expect(toHex(seven.hash)).toBe(
      '8b98440b3fa8b13d9d7f82e92ceb246c9707cf6c11ba38997385e7ea1097f06d752736753fe40b9ff06096211a11066a',
    );
    expect(eight.previousHash).toEqual(seven.hash);
    expect(toHex(eight.hash)).toBe(
      '78ef36dc7c7cb57cfb212966b768a0fbc9b0f5045574c6b3bfa0cccdcef9401b7edda1cf05ada60dedd7e0b435e0d81d',
    );
  });

  it('reads rounds, the header timestamp and only transactions with a result', () => {
    const seven = read(BLOCKS, 7n);
    expect(seven.number).toBe(7n);
    expect([seven.roundStart, seven.roundEnd]).toEqual([179n, 213n]);
    expect(seven.blockTimestamp).toBe(1770842059973945087n);
    // Two signed transactions, one of them a system transaction without a result.
    expect(seven.transactions.map((t) => t.consensusTimestamp)).toEqual([1770842061390565879n]);
    expect(seven.transactions[0]?.stateChanges.length).toBeGreaterThan(0);
    expect(read(BLOCKS, 8n).transactions.map((t) => t.consensusTimestamp)).toEqual([1770842063775529380n]);
  });

  it('names block files in both layouts', () => {
    expect(splitBlockPath(26591040n, '.blk.zstd')).toBe('0000/0000/0002/6591/040.blk.zstd');
    expect(blockNumberOfKey('mainnet/block/0000/0000/0002/6591/040.blk.zstd')).toBe(26591040n);
    expect(blockNumberOfKey('0000000000026591040.blk.gz')).toBe(26591040n);
    expect(blockNumberOfKey('0000000000026591040.rcd')).toBeUndefined();
  });
});

describe('wrapped record blocks', () => {
  const cases = [
    {
      block: 0n,
      name: '2019-09-13T21_53_51.396440Z.rcd',
      version: 2,
      count: 1,
      start: 1568411631396440000n,
      end: 1568411631396440000n,
      fileHash: '420fffe68fcd2a1eadcce589fdf9565bcf5a269d02232fe07cdc565b3b6f76ce46a9418ddc1bbe051d4894e04d091f8e',
      hash: '420fffe68fcd2a1eadcce589fdf9565bcf5a269d02232fe07cdc565b3b6f76ce46a9418ddc1bbe051d4894e04d091f8e',
      previous: '00'.repeat(48),
      size: 455,
      sidecars: 0,
    },
    {
      block: 26591040n,
      name: '2022-01-01T00_00_00.252365821Z.rcd',
      version: 5,
      count: 35,
      start: 1640995200252365821n,
      end: 1640995201946271915n,
      fileHash: '5f63f5c65e02fa305a4dadbb3a5bad781aab70b02cd6d057a2f0ba8b14e08d77cf0c7aaff1876577e787ccb32582e566',
      hash: '0d7773874647eddc3039fedf1d9a47aac58b7f4f4c47e77a8599456b800472cd0b55954837f03e002a217095615430b8',
      previous: '13ab802d147ef5a5a32c4bd386225e354aaa03c91122e48fea9777ad31e010de840dab29d42074fb264b5cacd1f69702',
      size: 19622,
      sidecars: 0,
    },
    {
      block: 82297471n,
      name: '2025-07-23T20_37_42.076472454Z.rcd',
      version: 6,
      count: 47,
      start: 1753303062076472454n,
      end: 1753303063721549000n,
      fileHash: 'c998dda6ca7216881d0c0037e2b19897078a561c46354cd69176eff4bc8b65666ca2ace1abd849d0970a237d128f6352',
      hash: 'f3a71062087f6afb70754c32cca0dcb48d297b0b909a956cd2b6d22c782ed6054742584b0465865e1fb1adcfbda7f65d',
      previous: 'cbd7a318fb7d0a023632002926857a1511953f6e1a6d162df1fe8b57f97d21389094f7a2bb31edd9d9859cc38c561bdd',
      size: 32665,
      sidecars: 1,
    },
  ];
  for (const c of cases) {
    it(`re-serializes block ${c.block} into the v${c.version} record file the nodes signed`, () => {
      const block = read(WRBS, c.block);
      expect(block.number).toBe(c.block);
      expect(block.transactions).toEqual([]);
      const wrapped = block.wrapped;
      if (!wrapped) throw new Error('not a wrapped record block');
      expect(wrapped.version).toBe(c.version);
      const { parsed, index, sidecars } = unwrapRecordFile(wrapped);
      const items = parsed.items.map(decodeRecordItem);
      expect({
        index,
        name: parsed.name,
        version: parsed.version,
        count: items.length,
        start: items[0]?.consensusTimestamp,
        end: items.at(-1)?.consensusTimestamp,
        fileHash: toHex(parsed.fileHash),
        hash: toHex(parsed.hash),
        previous: toHex(parsed.previousHash),
        size: parsed.size,
        sidecars: sidecars.length,
      }).toEqual({ ...c, index: c.block, block: undefined });
    });
  }

  describe('amendments', () => {
    const block = () => read(WRBS, 26591040n).wrapped as WrappedRecordFile;
    const item = (transaction: Uint8Array, record: Uint8Array) =>
      protobuf.Writer.create().uint32(10).bytes(transaction).uint32(18).bytes(record).finish();
    /** The block, its file, the file's third item, and records replacing that item and preceding the file. */
    const amendable = () => {
      const wrapped = block();
      const original = unwrapRecordFile(wrapped).parsed;
      const { TransactionRecord } = hapi();
      const third = original.items[2] as { transaction: Uint8Array; record: Uint8Array };
      const record = TransactionRecord.toObject(TransactionRecord.decode(third.record));
      const replaced = TransactionRecord.encode(TransactionRecord.fromObject({ ...record, memo: 'amended' })).finish();
      const earlier = TransactionRecord.encode(
        TransactionRecord.fromObject({ ...record, consensusTimestamp: { seconds: 1640995200, nanos: 0 } }),
      ).finish();
      return { wrapped, original, third, replaced, earlier };
    };

    it('replace the item of equal consensus time and insert earlier ones, leaving the file hash', () => {
      const { wrapped, original, third, replaced, earlier } = amendable();
      const { parsed } = unwrapRecordFile({
        ...wrapped,
        amendments: [item(third.transaction, earlier), item(third.transaction, replaced)],
      });
      expect(toHex(parsed.fileHash)).toBe(toHex(original.fileHash));
      expect(parsed.items.length).toBe(original.items.length + 1);
      expect(toHex(parsed.items[0]?.record as Uint8Array)).toBe(toHex(earlier));
      expect(toHex(parsed.items[3]?.record as Uint8Array)).toBe(toHex(replaced));
    });

    it('apply in consensus order however they are listed; two of one consensus time reject the block', () => {
      const { wrapped, original, third, replaced, earlier } = amendable();
      const { parsed } = unwrapRecordFile({
        ...wrapped,
        amendments: [item(third.transaction, replaced), item(third.transaction, earlier)],
      });
      expect(parsed.items.length).toBe(original.items.length + 1);
      expect(toHex(parsed.items[0]?.record as Uint8Array)).toBe(toHex(earlier));
      expect(toHex(parsed.items[3]?.record as Uint8Array)).toBe(toHex(replaced));
      const twice = {
        ...wrapped,
        amendments: [item(third.transaction, replaced), item(third.transaction, third.record)],
      };
      expect(() => unwrapRecordFile(twice)).toThrow(/two amendments at consensus time/);
    });

    it('reject an amendment whose record is not a TransactionRecord', () => {
      const wrapped = { ...block(), amendments: [item(new Uint8Array(), new Uint8Array([0x0a, 0x05, 0x01]))] };
      expect(() => unwrapRecordFile(wrapped)).toThrow(FormatError);
    });
  });

  it('keeps the footer of all three test blocks', () => {
    for (const c of cases) expect(toHex(read(WRBS, c.block).previousHash).slice(0, 12)).toBe('bec021b4f368');
  });

  it('names record files as the reference prints instants', () => {
    expect(recordFileNameOf(1568411631396440000n)).toBe('2019-09-13T21_53_51.396440Z.rcd');
    expect(recordFileNameOf(1568411631000000000n)).toBe('2019-09-13T21_53_51Z.rcd');
    expect(recordFileNameOf(1568411631100000000n)).toBe('2019-09-13T21_53_51.100Z.rcd');
  });
});
