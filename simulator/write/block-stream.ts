/**
 * Block stream files (HIP-1056): one zstd-compressed `Block` per period, numbered from 0, under
 * `<out>/simnet/block/…`. Items follow the consensus node's order: header; per round a round header and an
 * event header, then each transaction's signed bytes, result, output (contract transactions) and state changes;
 * then the footer and the proof. The block root hash is computed as the network does (verified on the
 * fixtures), the footer chains each block to the previous root, and the tree of all previous block hashes
 * grows block by block. What cannot be simulated is marked: the start-of-block state hash is a digest of
 * the previous root (there is no state tree), and the proof carries node 0's RSA signature over the root
 * hash in place of an aggregate TSS signature.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { BlockRootHasher, itemField, StreamingTree } from '../../ingest/decode/block-hash.ts';
import { fromHex, trimmed } from '../evm/abi.ts';
import { sha384 } from '../hash.ts';
import { timestampPb } from '../ledger/ids.ts';
import type { SimItem } from '../network/network.ts';
import { blockTypes } from './block-proto.ts';
import { BlockStateTracker, type StartingBalances } from './block-state.ts';
import { blockFilePath } from './layout.ts';
import { type SimNode, signHash } from './node-keys.ts';

const SOFTWARE_VERSION = { minor: 73 };
const TRANSACTIONS_PER_ROUND = 25;
const CONTRACT_CREATE_RESULT = 'contractCreateResult';

// biome-ignore lint/suspicious/noExplicitAny: records are the simulator's own plain protobuf objects
type Plain = Record<string, any>;

export interface BlockChainState {
  readonly previousRoot: string;
  readonly allBlockHashes: { readonly stack: readonly string[]; readonly count: number };
  readonly nextRound: number;
}

export interface WrittenBlock {
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly file: string;
}

export class BlockStreamWriter {
  private readonly out: string;
  private readonly signer: SimNode;
  private readonly state: BlockStateTracker;
  private readonly allBlockHashes: StreamingTree;
  private previousRoot: Uint8Array;
  private round: bigint;
  private previousEvent: Uint8Array = new Uint8Array(48);

  constructor(out: string, nodes: readonly SimNode[], balances: StartingBalances, chain?: BlockChainState) {
    const signer = nodes[0];
    if (!signer) throw new Error('no nodes');
    this.out = out;
    this.signer = signer;
    this.state = new BlockStateTracker(balances);
    const saved = chain?.allBlockHashes;
    this.allBlockHashes = new StreamingTree(saved && { stack: saved.stack.map(fromHex), count: saved.count });
    this.previousRoot = chain ? fromHex(chain.previousRoot) : new Uint8Array(48);
    this.round = BigInt(chain?.nextRound ?? 1);
  }

  /** Where the block chain stands, for continuing it in a later run. */
  chainState(): BlockChainState {
    const { stack, count } = this.allBlockHashes.state();
    return {
      previousRoot: Buffer.from(this.previousRoot).toString('hex'),
      allBlockHashes: { stack: stack.map((hash) => Buffer.from(hash).toString('hex')), count },
      nextRound: Number(this.round),
    };
  }

  write(items: readonly SimItem[], startNs: bigint, blockNumber: bigint): WrittenBlock {
    const types = blockTypes();
    const encoded: Uint8Array[] = [];
    // The ingest's hasher, which the fixture blocks verify: each item goes into the subtree of its field.
    const hasher = new BlockRootHasher();
    const add = (item: Plain) => {
      const bytes = types.BlockItem.encode(item).finish();
      encoded.push(bytes);
      hasher.add(itemField(bytes), bytes);
    };
    const blockTimestamp = timestampPb(startNs);
    add({
      block_header: {
        hapi_proto_version: SOFTWARE_VERSION,
        software_version: SOFTWARE_VERSION,
        number: Number(blockNumber),
        block_timestamp: blockTimestamp,
      },
    });
    for (let first = 0; first < items.length; first += TRANSACTIONS_PER_ROUND) {
      const round = items.slice(first, first + TRANSACTIONS_PER_ROUND);
      add({ round_header: { round_number: Number(this.round) } });
      const creator = Number(BigInt((round[0]?.body.nodeAccountID as Plain | undefined)?.accountNum ?? 3) - 3n);
      const event = {
        event_core: {
          ...(creator ? { creator_node_id: creator } : {}),
          birth_round: Number(this.round),
          time_created: timestampPb((round[0]?.consensusNs ?? startNs) - 1_000_000n),
        },
        parents: [{ event_descriptor: { hash: this.previousEvent, birth_round: Number(this.round - 1n) } }],
      };
      add({ event_header: types.EventHeader.encode(event).finish() });
      this.previousEvent = sha384(encoded[encoded.length - 1] as Uint8Array);
      this.round++;
      for (const item of round) this.addTransaction(item, add);
    }
    const footer = {
      previous_block_root_hash: this.previousRoot,
      root_hash_of_all_block_hashes_tree: this.allBlockHashes.root(),
      start_of_block_state_root_hash: sha384(new TextEncoder().encode('state'), this.previousRoot),
    };
    add({ block_footer: footer });
    const root = hasher.root({
      previousBlockRootHash: footer.previous_block_root_hash,
      rootHashOfAllBlockHashesTree: footer.root_hash_of_all_block_hashes_tree,
      startOfBlockStateRootHash: footer.start_of_block_state_root_hash,
      blockTimestamp: types.Timestamp.encode(blockTimestamp).finish(),
    });
    add({
      block_proof: {
        block: Number(blockNumber),
        signed_block_proof: types.SignedBlockProof.encode({ block_signature: signHash(this.signer, root) }).finish(),
      },
    });

    const file = blockFilePath(this.out, blockNumber);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, zstdCompressSync(types.Block.encode({ items: encoded }).finish()));
    renameSync(`${file}.tmp`, file);
    this.allBlockHashes.addHash(root);
    this.previousRoot = root;
    return { number: blockNumber, hash: root, file };
  }

  private addTransaction(item: SimItem, add: (item: Plain) => void): void {
    const record = item.record as Plain;
    add({ signed_transaction: item.signedTransactionBytes });
    add({
      transaction_result: {
        status: record.receipt.status,
        consensus_timestamp: record.consensusTimestamp,
        ...(record.parent_consensus_timestamp ? { parent_consensus_timestamp: record.parent_consensus_timestamp } : {}),
        ...(record.scheduleRef ? { schedule_ref: record.scheduleRef } : {}),
        ...(record.transactionFee ? { transaction_fee_charged: record.transactionFee } : {}),
        transfer_list: record.transferList,
        token_transfer_lists: record.tokenTransferLists ?? [],
        automatic_token_associations: record.automatic_token_associations ?? [],
      },
    });
    for (const output of outputsOf(item)) add({ transaction_output: output });
    const trace = traceOf(item);
    if (trace) add({ trace_data: trace });
    const changes = this.state.changesOf(item);
    if (changes.length > 0)
      add({ state_changes: { consensus_timestamp: record.consensusTimestamp, state_changes: changes } });
  }
}

/**
 * TransactionOutput items: what the body and result do not already say — EVM results, created accounts, the
 * schedule and scheduled transaction ids of schedule creations and signatures.
 */
function outputsOf(item: SimItem): Plain[] {
  const record = item.record as Plain;
  const body = item.body as Plain;
  const receipt = record.receipt as Plain;
  const evm = (record.contractCallResult ?? record[CONTRACT_CREATE_RESULT]) as Plain | undefined;
  if (evm) {
    const result = {
      evm_transaction_result: {
        sender_id: evm.sender_id,
        contract_id: evm.contractID,
        ...(evm.contractCallResult ? { result_data: evm.contractCallResult } : {}),
        ...(evm.errorMessage ? { error_message: evm.errorMessage } : {}),
        gas_used: evm.gasUsed,
        internal_call_context: {
          gas: evm.gas,
          ...(evm.functionParameters ? { call_data: evm.functionParameters } : {}),
        },
      },
    };
    if (body.ethereumTransaction)
      return [{ ethereum_call: { evm_call_transaction_result: result.evm_transaction_result } }];
    return [record.contractCallResult ? { contract_call: result } : { contract_create: result }];
  }
  if (body.cryptoCreateAccount && receipt.accountID)
    return [{ account_create: { created_account_id: receipt.accountID } }];
  if (body.scheduleCreate && receipt.scheduleID) {
    return [
      {
        create_schedule: { schedule_id: receipt.scheduleID, scheduled_transaction_id: receipt.scheduledTransactionID },
      },
    ];
  }
  if (body.scheduleSign && receipt.scheduledTransactionID) {
    return [{ sign_schedule: { scheduled_transaction_id: receipt.scheduledTransactionID } }];
  }
  return [];
}

/** TraceData of a contract transaction: its EVM logs (topics trimmed) and, for a creation, the initcode run. */
function traceOf(item: SimItem): Plain | undefined {
  const record = item.record as Plain;
  const evm = (record.contractCallResult ?? record[CONTRACT_CREATE_RESULT]) as Plain | undefined;
  if (!evm) return undefined;
  const logs = ((evm.logInfo ?? []) as Plain[]).map((log) => ({
    contract_id: log.contractID,
    ...(log.data ? { data: log.data } : {}),
    topics: (log.topic as Uint8Array[]).map((topic) => trimmed(topic)),
  }));
  const sidecars = item.sidecars as Plain[];
  const initcode = sidecars.find((s) => s.bytecode)?.bytecode as Plain | undefined;
  const actions = sidecars.flatMap((s) => (s.actions?.contract_actions ?? []) as Plain[]);
  const usages = sidecars.flatMap((s) => ((s.state_changes?.contract_state_changes ?? []) as Plain[]).map(slotUsage));
  if (logs.length === 0 && !initcode && actions.length === 0 && usages.length === 0) return undefined;
  return {
    evm_trace_data: {
      ...(initcode
        ? { executed_initcode: { contract_id: initcode.contract_id, explicit_initcode: initcode.initcode } }
        : {}),
      ...(actions.length > 0 ? { contract_actions: actions } : {}),
      ...(usages.length > 0 ? { contract_slot_usages: usages } : {}),
      logs,
    },
  };
}

/** A contract's storage changes as a slot usage: written slots by their index among the written keys. */
function slotUsage(change: Plain): Plain {
  const written: Uint8Array[] = [];
  const reads: Plain[] = [];
  for (const slot of (change.storage_changes ?? []) as Plain[]) {
    const read = slot.value_read ? { read_value: slot.value_read } : {};
    if (slot.value_written) {
      reads.push({ index: written.length, ...read });
      written.push(slot.slot ?? new Uint8Array());
    } else reads.push({ key: slot.slot ?? new Uint8Array(), ...read });
  }
  return { contract_id: change.contract_id, written_slot_keys: { keys: written }, slot_reads: reads };
}
