import { verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddressBook } from '../../ingest/decode/address-book.ts';
import { decompressBlock, splitBlockItems } from '../../ingest/decode/block-file.ts';
import { readBlock } from '../../ingest/decode/block-reader.ts';
import { blockRecordItems } from '../../ingest/decode/block-record.ts';
import { STREAMS } from '../../ingest/testing/fixtures.ts';
import { nodeKeysOf } from '../../ingest/verify/node-keys.ts';
import { hapi } from '../../proto/hapi.ts';
import type { LedgerSnapshot } from '../ledger/export.ts';
import { parseOptions } from '../main.ts';
import { simulate } from '../run.ts';
import { rawItems, rootOf } from '../testing/read-blocks.ts';
import { readVerifiedOutput } from '../testing/read-output.ts';
import { blockTypes } from './block-proto.ts';
import { ADDRESS_BOOK_FILE, blockFilePath, LEDGER_FILE } from './layout.ts';

const FIXTURES = path.join(STREAMS, 'data/blockstreams/0000/0000/0000/0000');

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

let out: string;
beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'simulator-blocks-'));
  await simulate({
    ...parseOptions(['--out', out, '--files', '4', '--tps', '60', '--format', 'both', '--seed', 'blocks']),
  });
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));
/** The genesis block and four of traffic. */
const BLOCKS = 5n;

describe('block stream files', () => {
  it('computes the block root hash the fixtures publish', () => {
    expect(hex(rootOf(path.join(FIXTURES, '007.blk.zstd')).root)).toBe(
      '8b98440b3fa8b13d9d7f82e92ceb246c9707cf6c11ba38997385e7ea1097f06d752736753fe40b9ff06096211a11066a',
    );
    expect(hex(rootOf(path.join(FIXTURES, '008.blk.zstd')).root)).toBe(
      '78ef36dc7c7cb57cfb212966b768a0fbc9b0f5045574c6b3bfa0cccdcef9401b7edda1cf05ada60dedd7e0b435e0d81d',
    );
  });

  it('writes consecutive blocks that chain by root hash and carry node 0 signatures over it', () => {
    const keys = nodeKeysOf(parseAddressBook(readFileSync(path.join(out, ADDRESS_BOOK_FILE))));
    let previous: Uint8Array = new Uint8Array(48);
    for (let number = 0n; number < BLOCKS; number++) {
      const file = blockFilePath(out, number);
      const { root, footer } = rootOf(file);
      expect(hex(footer[0] ?? new Uint8Array())).toBe(hex(previous));
      const proof = blockTypes().BlockItem.toObject(
        blockTypes().BlockItem.decode(rawItems(file).at(-1)?.bytes ?? new Uint8Array()),
        { longs: Number },
      );
      expect(proof.block_proof.block).toBe(Number(number));
      const signed = blockTypes().SignedBlockProof.decode(proof.block_proof.signed_block_proof) as unknown as {
        block_signature: Uint8Array;
      };
      expect(verify('sha384', root, keys.nodes[0]?.publicKey ?? '', signed.block_signature)).toBe(true);
      previous = root;
    }
  });

  it('has the item order of the fixtures and the same transactions as the record files', () => {
    const records = readVerifiedOutput(out);
    const fixture = rawItems(path.join(FIXTURES, '007.blk.zstd')).map((i) => i.kind);
    for (const [number, recordFile] of records.entries()) {
      const items = rawItems(blockFilePath(out, BigInt(number)));
      const kinds = items.map((i) => i.kind);
      expect([kinds[0], kinds[1], kinds.at(-2), kinds.at(-1)]).toEqual([
        fixture[0],
        fixture[1],
        fixture.at(-2),
        fixture.at(-1),
      ]);
      const signed = items.filter((i) => i.kind === 4).map((i) => hex(i.inner));
      expect(signed).toEqual(recordFile.items.map((i) => hex(i.signedTransactionBytes)));
      const results = items.filter((i) => i.kind === 5).length;
      expect(results).toBe(recordFile.items.length);
    }
  });

  it('reports account balances in state changes that end where the ledger model ends', () => {
    const ledger = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
    const balances = new Map<string, string>();
    const { BlockItem, stateValues } = blockTypes();
    for (let number = 0n; number < BLOCKS; number++) {
      for (const { kind, bytes } of rawItems(blockFilePath(out, number))) {
        if (kind !== 7) continue;
        const item = BlockItem.toObject(BlockItem.decode(bytes), { longs: String });
        for (const change of item.state_changes.state_changes) {
          const value = change.map_update?.value?.account_value;
          const account =
            value && stateValues.account_value.toObject(stateValues.account_value.decode(value), { longs: String });
          if (account) balances.set(`0.0.${account.account_id.accountNum}`, account.tinybar_balance ?? '0');
        }
      }
    }
    expect(balances.size).toBeGreaterThan(5);
    for (const [id, balance] of balances)
      expect(`${id} ${balance}`).toBe(`${id} ${ledger.accounts.find((a) => a.id === id)?.balance}`);
  });

  it('is read by the ingest block reader into the records the record stream carries', () => {
    const records = readVerifiedOutput(out);
    const { TransactionRecord } = hapi();
    const plain = { longs: String, enums: Number } as const;
    let contractResults = 0;
    for (const [number, recordFile] of records.entries()) {
      const file = blockFilePath(out, BigInt(number));
      const bytes = new Uint8Array(readFileSync(file));
      const block = readBlock(
        `${String(number).padStart(19, '0')}.blk`,
        splitBlockItems(decompressBlock(bytes)),
        bytes.length,
      );
      expect(block.number).toBe(BigInt(number));
      expect(hex(block.hash)).toBe(hex(rootOf(file).root));
      const rebuilt = blockRecordItems(block.transactions).map((item) =>
        TransactionRecord.toObject(item.record as protobuf.Message, plain),
      );
      expect(rebuilt).toHaveLength(recordFile.items.length);
      for (const [i, item] of recordFile.items.entries()) {
        const original = item.record;
        const ours = rebuilt[i] ?? {};
        const pick = (r: Record<string, unknown>) => ({
          hash: hex(r.transactionHash as Uint8Array),
          timestamp: r.consensusTimestamp,
          transfers: r.transferList,
          tokens: r.tokenTransferLists ?? [],
          status: (r.receipt as Record<string, unknown>).status,
        });
        expect(pick(ours)).toEqual(pick(original));
        for (const field of [
          'accountID',
          'tokenID',
          'topicID',
          'scheduleID',
          'scheduledTransactionID',
          'serialNumbers',
          'topicSequenceNumber',
          'newTotalSupply',
          'contractID',
        ]) {
          if (original.receipt[field] !== undefined)
            expect(ours.receipt[field], `${field} of item ${i}`).toEqual(original.receipt[field]);
        }
        if (original.receipt.topicRunningHash)
          expect(hex(ours.receipt.topicRunningHash)).toBe(hex(original.receipt.topicRunningHash));
        const evm = original.contractCallResult ?? original.contractCreateResult;
        if (evm) {
          contractResults++;
          const rebuiltEvm = ours.contractCallResult ?? ours.contractCreateResult;
          expect(rebuiltEvm.gasUsed).toBe(evm.gasUsed);
          expect((rebuiltEvm.logInfo ?? []).length).toBe((evm.logInfo ?? []).length);
        }
      }
    }
    expect(contractResults).toBeGreaterThan(0);
  });
});
