/**
 * One verified record file → every row it produces. Items are derived in file order; each transaction
 * family lives in its own module and this file only dispatches on the transaction type.
 */

import { toHex } from '../decode/hash.ts';
import type { ParsedRecordFile, RawItem } from '../decode/record-file.ts';
import { decodeRecordItem, type RecordItem } from '../decode/record-item.ts';
import type { ParsedSidecarFile, SidecarRecord } from '../decode/sidecar-file.ts';
import { instantOfName } from '../decode/stream-file-name.ts';
import type { ColumnKind } from '../sink/copy-binary.ts';
import * as airdrop from './airdrop.ts';
import * as consensus from './consensus.ts';
import { type ItemContext, idParts } from './context.ts';
import * as contract from './contract.ts';
import { contractResult, isResultSet } from './contract-result.ts';
import * as crypto from './crypto.ts';
import * as ethereum from './ethereum.ts';
import * as file from './file.ts';
import { FileRows } from './file-rows.ts';
import { hookExecutionStorage, hookStore, isHookExecution, queueHookCalls } from './hooks.ts';
import { ledgerIdPublication } from './ledger.ts';
import { mainEntity } from './main-entity.ts';
import * as network from './network.ts';
import * as node from './node.ts';
import { registeredNodeCreate, registeredNodeDelete, registeredNodeUpdate } from './registered-node.ts';
import * as schedule from './schedule.ts';
import { deriveSidecarRecords, sidecarFacts } from './sidecar.ts';
import { syntheticTransferLogs } from './synthetic-logs.ts';
import * as token from './token.ts';
import { deriveCommon, stakingRewards, transactionRow } from './transaction.ts';

type Handler = (ctx: ItemContext) => void;

/** Per HAPI type (TransactionBody field number): the rows beyond the common ones. */
const HANDLERS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [8, contract.contractCreate],
  [14, queueHookCalls],
  [9, contract.contractUpdate],
  [11, crypto.cryptoCreate],
  [12, crypto.cryptoDelete],
  [15, crypto.cryptoUpdate],
  [16, file.fileAppend],
  [17, file.fileCreate],
  [18, file.fileDelete],
  [19, file.fileUpdate],
  [20, (ctx) => file.systemDeleteOrUndelete(ctx, true)],
  [21, (ctx) => file.systemDeleteOrUndelete(ctx, false)],
  [22, contract.contractDelete],
  [23, network.freeze],
  [24, consensus.topicCreate],
  [25, consensus.topicUpdate],
  [26, consensus.topicDelete],
  [27, consensus.submitMessage],
  [29, token.tokenCreate],
  [31, (ctx) => token.tokenAccountStatus(ctx, 'freeze_status', 1)],
  [32, (ctx) => token.tokenAccountStatus(ctx, 'freeze_status', 2)],
  [33, (ctx) => token.tokenAccountStatus(ctx, 'kyc_status', 1)],
  [34, (ctx) => token.tokenAccountStatus(ctx, 'kyc_status', 2)],
  [35, token.tokenDelete],
  [36, token.tokenUpdate],
  [37, (ctx) => token.tokenSupply(ctx, 'mint')],
  [38, (ctx) => token.tokenSupply(ctx, 'burn')],
  [39, (ctx) => token.tokenSupply(ctx, 'wipe')],
  [40, (ctx) => token.tokenAssociation(ctx, true)],
  [41, (ctx) => token.tokenAssociation(ctx, false)],
  [42, schedule.scheduleCreate],
  [43, schedule.scheduleDelete],
  [44, schedule.scheduleSign],
  [45, token.tokenFeeScheduleUpdate],
  [46, (ctx) => token.tokenPause(ctx, true)],
  [47, (ctx) => token.tokenPause(ctx, false)],
  [48, crypto.approveAllowance],
  [49, crypto.deleteAllowance],
  [50, ethereum.ethereumTransaction],
  [51, network.nodeStakeUpdate],
  [52, network.prng],
  [53, token.tokenUpdateNfts],
  [54, node.nodeCreate],
  [55, node.nodeUpdate],
  [56, node.nodeDelete],
  [58, airdrop.pendingAirdrops],
  [59, (ctx) => airdrop.resolveAirdrops(ctx, 'CANCELLED')],
  [60, (ctx) => airdrop.resolveAirdrops(ctx, 'CLAIMED')],
  [75, hookStore],
  [77, ledgerIdPublication],
  [78, registeredNodeCreate],
  [79, registeredNodeUpdate],
  [80, registeredNodeDelete],
]);

export interface DerivedFile {
  readonly rows: FileRows;
  /** Transactions (items) in the file. */
  readonly count: number;
  readonly consensusStart: bigint;
  readonly consensusEnd: bigint;
}

export interface DeriveOptions {
  /** `record_file.index`: the block number of v6 files, else the previous index + 1. */
  readonly index: bigint;
  readonly loadStart: bigint;
  readonly sidecars: readonly {
    readonly name: string;
    readonly id: number;
    readonly types: readonly number[];
    readonly file: ParsedSidecarFile;
  }[];
  /** Consensus start/end of a file without items when its name carries no instant (a block: its timestamp). */
  readonly emptyFileInstant?: bigint;
  /** Sidecar records that came without a sidecar file (a block's state changes and trace data). */
  readonly evmRecords?: readonly SidecarRecord[];
  /** Given (each `table.column`'s kind, schema.ts), plain inserts become COPY data as derived (file-rows.ts). */
  readonly columnKinds?: ReadonlyMap<string, ColumnKind>;
}

const ATOMIC_BATCH = 74;
const FAIL_INVALID = 9;
const NODE_TRANSACTIONS: ReadonlySet<number> = new Set([54, 55, 56]);

export function deriveRecordFile(parsed: ParsedRecordFile, options: DeriveOptions): DerivedFile {
  const rows = new FileRows(options.columnKinds);
  const hapiMinor = parsed.hapiVersion?.minor ?? 0;
  // Atomic batches, the only parents their inner transactions write to. A row can become COPY text at once
  // and not change afterwards, so a batch's row is added after all items.
  const batches = new Map<bigint, Record<string, unknown>>();
  const payers = new Map<bigint, bigint>();
  const sidecars = sidecarFacts([
    ...options.sidecars.flatMap((sidecar) => sidecar.file.records),
    ...(options.evmRecords ?? []),
  ]);
  let previous: ItemNode | undefined;
  // Hook executions, whose storage changes of the hook contract are their hook's, not contract state.
  const hookExecutions = new Set<bigint>();
  let consensusStart: bigint | undefined;
  let consensusEnd: bigint | undefined;
  let gasUsed = 0n;
  let bloom: Uint8Array | undefined;
  // Each item is decoded, derived and dropped in turn, so it never outlives a young-generation collection.
  for (let index = 0; index < parsed.items.length; index++) {
    const decoded = decodeRecordItem(parsed.items[index] as RawItem, index);
    const parent = parentOf(decoded, previous);
    // A child is successful only if its parent is (RecordItem.parseSuccess): nodes have externalized children of
    // reverted calls as SUCCESS.
    const item = parent && !parent.item.successful && decoded.successful ? { ...decoded, successful: false } : decoded;
    previous = { item, parent };
    consensusStart ??= item.consensusTimestamp;
    consensusEnd = item.consensusTimestamp;
    payers.set(item.consensusTimestamp, item.payerAccountId);
    const transaction = transactionRow({ item, rows, hapiMinor }, mainEntity(item));
    if (NODE_TRANSACTIONS.has(item.type)) node.nodeTransactionBytes(transaction, parsed.items[index] as RawItem);
    const ctx: ItemContext = {
      item,
      rows,
      transaction,
      hapiMinor,
      sidecars,
      parent: parent?.item,
    };
    deriveCommon(ctx);
    // Logs take the file's log counter in the importer's order: the handler's, the token transfers', the EVM's.
    HANDLERS.get(item.type)?.(ctx);
    if (item.successful || item.status === FAIL_INVALID) syntheticTransferLogs(ctx);
    contractResult(ctx);
    if (isHookExecution(ctx)) {
      hookExecutions.add(item.consensusTimestamp);
      hookExecutionStorage(ctx);
    }
    stakingRewards(ctx);
    if (item.record.scheduleRef) schedule.scheduledExecution(ctx);
    // Inner transactions of an atomic batch list themselves on their parent, in order.
    if (transaction.batch_key && (transaction.nonce as number) === 0 && item.parentConsensusTimestamp !== undefined) {
      const batch = batches.get(item.parentConsensusTimestamp);
      if (batch) {
        const inner = (batch.inner_transactions as bigint[] | null) ?? [];
        inner.push(item.payerAccountId, transaction.valid_start_ns as bigint);
        batch.inner_transactions = inner;
      }
    }
    const result = item.record.contractCreateResult ?? item.record.contractCallResult;
    if (isTopLevel(item) && isResultSet(result)) {
      gasUsed += result.gasUsed ?? 0n;
      // The importer's LogsBloomFilter is 256 zero bytes from the first result on, whatever that result's bloom.
      bloom = orBloom(bloom ?? new Uint8Array(BLOOM_BYTES), result.bloom ?? new Uint8Array());
    }
    if (item.type === ATOMIC_BATCH) batches.set(item.consensusTimestamp, transaction);
    else rows.insert('transaction', transaction);
  }
  rows.foldInPlaceChanges();
  for (const batch of batches.values()) rows.insert('transaction', batch);
  for (const sidecar of options.sidecars)
    deriveSidecarRecords(rows, sidecar.file.records, (ts) => payers.get(ts), hookExecutions);
  if (options.evmRecords) deriveSidecarRecords(rows, options.evmRecords, (ts) => payers.get(ts), hookExecutions);
  rows.emitContractTransactions();

  const count = parsed.items.length;
  const fileInstant = count > 0 ? 0n : (options.emptyFileInstant ?? instantOfName(parsed.name));
  consensusStart ??= fileInstant;
  consensusEnd ??= fileInstant;
  for (const sidecar of options.sidecars) {
    rows.insert('sidecar_file', {
      consensus_end: consensusEnd,
      count: sidecar.file.records.length,
      hash_algorithm: 0,
      hash: sidecar.file.hash,
      id: sidecar.id,
      name: sidecar.name,
      size: sidecar.file.size,
      types: sidecar.types,
    });
  }
  // Epoch milliseconds, as the importer stamps load_start and load_end.
  const loadEnd = BigInt(Date.now());
  const stored = parsed.version >= 5 ? parsed.hapiVersion : undefined;
  rows.insert('record_file', {
    name: parsed.name,
    load_start: options.loadStart,
    load_end: loadEnd,
    hash: toHex(parsed.hash),
    prev_hash: toHex(parsed.previousHash),
    consensus_start: consensusStart,
    consensus_end: consensusEnd,
    count: BigInt(count),
    digest_algorithm: 0,
    // From v5 the HAPI version, which the importer stores as the software version too; v1 and v2 files: none.
    hapi_version_major: stored?.major ?? null,
    hapi_version_minor: stored?.minor ?? null,
    hapi_version_patch: stored?.patch ?? null,
    software_version_major: stored?.major ?? null,
    software_version_minor: stored?.minor ?? null,
    software_version_patch: stored?.patch ?? null,
    version: parsed.version,
    file_hash: toHex(parsed.fileHash),
    index: options.index,
    gas_used: gasUsed,
    logs_bloom: bloom ?? new Uint8Array(),
    size: parsed.size,
    sidecar_count: parsed.sidecars.length,
  });
  return { rows, count, consensusStart, consensusEnd };
}

interface ItemNode {
  readonly item: RecordItem;
  readonly parent: ItemNode | undefined;
}

/**
 * The parent of a child record, found as the importer finds it (RecordItem.parseParent): the previous item, its
 * parent, or its grandparent (the inner transaction of a batch whose children came first).
 */
function parentOf(item: RecordItem, previous: ItemNode | undefined): ItemNode | undefined {
  const at = item.parentConsensusTimestamp;
  if (at === undefined || !previous) return undefined;
  if (previous.item.consensusTimestamp === at) return previous;
  if (previous.parent?.item.consensusTimestamp === at) return previous.parent;
  if (previous.parent?.item.parentConsensusTimestamp === at) return previous.parent.parent;
  return undefined;
}

const BLOOM_BYTES = 256;
const SYSTEM_FILE_PAYER = 50n;
const FILE_UPDATE = 19;

/**
 * A user-submitted transaction, whose result counts in the file's gas and bloom (RecordItem.isTopLevel): nonce 0, a
 * scheduled transaction, no parent, or a file update paid by 0.0.50.
 */
function isTopLevel(item: RecordItem): boolean {
  const id = item.record.transactionID;
  const nonce = id?.nonce ?? 0;
  return (
    nonce === 0 ||
    id?.scheduled === true ||
    item.parentConsensusTimestamp === undefined ||
    (item.type === FILE_UPDATE && idParts(item.payerAccountId).num === SYSTEM_FILE_PAYER)
  );
}

function orBloom(current: Uint8Array, next: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.max(current.length, next.length));
  for (let i = 0; i < out.length; i++) out[i] = (current[i] ?? 0) | (next[i] ?? 0);
  return out;
}
