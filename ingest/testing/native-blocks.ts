/**
 * Native blocks built on the spot for tests: header, one round, each transaction as a signed_transaction with its
 * result, outputs, trace data and state changes, then footer and proof, chained onto a given previous hash. The
 * transactions are plain HAPI TransactionBody objects; what the consensus node would have reported about them
 * (outputs, traces, state changes) is given by the test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { blockTypes } from '../../proto/block.ts';
import { hapi } from '../../proto/hapi.ts';
import { splitBlockPath } from '../decode/block-file.ts';
import type { Plain } from '../decode/block-reader.ts';
import { readBlock } from '../decode/block-reader.ts';

const SUCCESS = 22;

export interface NativeTransaction {
  /** The TransactionBody minus the transaction id, which is made from `payer` and the consensus time. */
  readonly body: Plain;
  readonly timestamp: bigint;
  readonly payer?: bigint;
  readonly status?: number;
  readonly fee?: bigint;
  readonly parent?: bigint;
  readonly outputs?: readonly Plain[];
  readonly traces?: readonly Plain[];
  readonly stateChanges?: readonly Plain[];
}

export const timestampOf = (ns: bigint) => ({
  seconds: Number(ns / 1_000_000_000n),
  nanos: Number(ns % 1_000_000_000n),
});

function signedTransaction(tx: NativeTransaction): Uint8Array {
  const { TransactionBody, SignedTransaction } = hapi();
  const payer = { accountNum: Number(tx.payer ?? 2n) };
  const body = TransactionBody.fromObject({
    transactionID: { accountID: payer, transactionValidStart: timestampOf(tx.timestamp - 1_000_000_000n) },
    nodeAccountID: { accountNum: 3 },
    transactionFee: 100_000_000,
    transactionValidDuration: { seconds: 120 },
    ...tx.body,
  });
  return SignedTransaction.encode({ bodyBytes: TransactionBody.encode(body).finish(), sigMap: {} }).finish();
}

function transactionItems(tx: NativeTransaction): Plain[] {
  const fee = Number(tx.fee ?? 100_000n);
  const payer = { accountNum: Number(tx.payer ?? 2n) };
  const items: Plain[] = [
    { signed_transaction: signedTransaction(tx) },
    {
      transaction_result: {
        status: tx.status ?? SUCCESS,
        consensus_timestamp: timestampOf(tx.timestamp),
        ...(tx.parent !== undefined ? { parent_consensus_timestamp: timestampOf(tx.parent) } : {}),
        transaction_fee_charged: fee,
        transfer_list: {
          accountAmounts: [
            { accountID: payer, amount: -fee },
            { accountID: { accountNum: 98 }, amount: fee },
          ],
        },
      },
    },
    ...(tx.outputs ?? []).map((output) => ({ transaction_output: output })),
    ...(tx.traces ?? []).map((trace) => ({ trace_data: trace })),
  ];
  if (tx.stateChanges?.length) {
    items.push({
      state_changes: { consensus_timestamp: timestampOf(tx.timestamp), state_changes: tx.stateChanges },
    });
  }
  return items;
}

/** One native block; its items and root hash (what the next block's footer must name). */
export function nativeBlock(
  number: bigint,
  previousHash: Uint8Array,
  timestamp: bigint,
  transactions: readonly NativeTransaction[],
): { items: Uint8Array[]; hash: Uint8Array } {
  const { BlockItem } = blockTypes();
  const items = [
    {
      block_header: {
        hapi_proto_version: { minor: 73 },
        software_version: { minor: 73 },
        number: Number(number),
        block_timestamp: timestampOf(timestamp),
      },
    },
    { round_header: { round_number: 1000 + Number(number) } },
    ...transactions.flatMap(transactionItems),
    {
      block_footer: {
        previous_block_root_hash: previousHash,
        root_hash_of_all_block_hashes_tree: new Uint8Array(48),
        start_of_block_state_root_hash: new Uint8Array(48),
      },
    },
    { block_proof: { block: Number(number), signed_block_proof: new Uint8Array(48).fill(7) } },
  ].map((item) => BlockItem.encode(item).finish());
  return { items, hash: readBlock('generated', items, 0).hash };
}

/** Consecutive native blocks from `first`, each with its transactions, written as `.blk` files under `dir`. */
export function writeNativeBlocks(
  dir: string,
  first: bigint,
  blocks: readonly { readonly timestamp: bigint; readonly transactions: readonly NativeTransaction[] }[],
  previousHash: Uint8Array = new Uint8Array(48),
): Uint8Array {
  const { Block } = blockTypes();
  let previous = previousHash;
  blocks.forEach((block, i) => {
    const number = first + BigInt(i);
    const built = nativeBlock(number, previous, block.timestamp, block.transactions);
    const file = path.join(dir, splitBlockPath(number, '.blk'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, Block.encode({ items: built.items }).finish());
    previous = built.hash;
  });
  return previous;
}
