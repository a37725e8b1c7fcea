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
import { accountId, contractId, fileId, type ItemContext, scheduleId, tokenId, topicId } from './context.ts';
import * as contract from './contract.ts';
import * as crypto from './crypto.ts';
import * as ethereum from './ethereum.ts';
import * as file from './file.ts';
import { FileRows } from './file-rows.ts';
import { ledgerIdPublication } from './ledger.ts';
import * as network from './network.ts';
import * as node from './node.ts';
import * as schedule from './schedule.ts';
import { deriveSidecarRecords, sidecarFacts } from './sidecar.ts';
import { syntheticTransferLogs } from './synthetic-logs.ts';
import * as token from './token.ts';
import { deriveCommon, stakingRewards, transactionRow } from './transaction.ts';

type Handler = (ctx: ItemContext) => void;

/** Per HAPI type (TransactionBody field number): the rows beyond the common ones. */
const HANDLERS: ReadonlyMap<number, Handler> = new Map<number, Handler>([
  [8, contract.contractCreate],
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
  [59, (ctx) => airdrop.resolveAirdrops(ctx, 'CANCELLED')],
  [60, (ctx) => airdrop.resolveAirdrops(ctx, 'CLAIMED')],
  [77, ledgerIdPublication],
]);

/** The "main" entity a transaction is about (`transaction.entity_id`), 0 when none. */
function mainEntity(item: RecordItem): bigint {
  const body = (item.bodyName ? item.body[item.bodyName] : undefined) as Record<string, unknown> | undefined;
  const receipt = item.record.receipt;
  const get = (field: string) => body?.[field] as Parameters<typeof accountId>[0];
  switch (item.type) {
    case 7:
    case 8:
    case 9:
    case 22:
      return contract.contractEntity({ item });
    case 50:
      // The contract of the function result, as the importer's EthereumTransactionHandler.getEntity takes it.
      return contractId((item.record.contractCreateResult ?? item.record.contractCallResult)?.contractID);
    case 10:
      return accountId((body?.liveHash as { accountId?: Parameters<typeof accountId>[0] } | undefined)?.accountId);
    case 11:
      return accountId(receipt?.accountID);
    case 13:
      return accountId(get('accountOfLiveHash'));
    case 23:
      return fileId(get('update_file'));
    case 12:
      return accountId(get('deleteAccountID'));
    case 15:
      return accountId(get('accountIDToUpdate'));
    case 16:
    case 17:
    case 18:
    case 19:
    case 20:
    case 21:
      return file.fileEntity({ item });
    case 24:
      return topicId(receipt?.topicID);
    case 25:
    case 26:
    case 27:
      return topicId(get('topicID'));
    case 29:
      return tokenId(receipt?.tokenID);
    case 35:
    case 36:
    case 37:
    case 38:
    case 39:
    case 46:
    case 47:
    case 53:
      return tokenId(get('token'));
    case 31:
    case 32:
    case 33:
    case 34:
    case 40:
    case 41:
      return accountId(get('account'));
    case 54:
    case 55:
      return accountId(get('account_id'));
    case 57:
      return accountId(get('owner')) || item.payerAccountId;
    case 45:
      return tokenId(get('token_id'));
    case 75: {
      // HookStore: the account or contract that owns the hook (HookStoreTransactionHandler.getEntity).
      const owner = (get('hook_id') as { entity_id?: Record<string, Parameters<typeof accountId>[0]> } | undefined)
        ?.entity_id;
      return owner?.account_id ? accountId(owner.account_id) : contractId(owner?.contract_id);
    }
    case 42:
      return scheduleId(receipt?.scheduleID);
    case 43:
    case 44:
      return scheduleId(get('scheduleID'));
    default:
      return 0n;
  }
}

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
const ETHEREUM_TRANSACTION = 50;
const NODE_TRANSACTIONS: ReadonlySet<number> = new Set([54, 55, 56]);

export function deriveRecordFile(parsed: ParsedRecordFile, options: DeriveOptions): DerivedFile {
  const rows = new FileRows(options.columnKinds);
  const hapiMinor = parsed.hapiVersion?.minor ?? 0;
  // Atomic batches, the only parents their inner transactions write to. A row can become COPY text at once
  // and not change afterwards, so a batch's row is added after all items.
  const batches = new Map<bigint, Record<string, unknown>>();
  // Contracts ContractCreate items make, so far; contracts a result lists as created by another are entity
  // changes unless a ContractCreate of this file (earlier, or later: dropped after the loop) makes them.
  const createdInFile = new Set<bigint>();
  const payers = new Map<bigint, bigint>();
  // Senders of the Ethereum transactions' function results, by consensus time, for their child records.
  const ethereumSenders = new Map<bigint, bigint>();
  const sidecars = sidecarFacts([
    ...options.sidecars.flatMap((sidecar) => sidecar.file.records),
    ...(options.evmRecords ?? []),
  ]);
  let consensusStart: bigint | undefined;
  let consensusEnd: bigint | undefined;
  let gasUsed = 0n;
  let bloom: Uint8Array | undefined;
  // Each item is decoded, derived and dropped in turn, so it never outlives a young-generation collection.
  for (let index = 0; index < parsed.items.length; index++) {
    const item = decodeRecordItem(parsed.items[index] as RawItem, index);
    consensusStart ??= item.consensusTimestamp;
    consensusEnd = item.consensusTimestamp;
    payers.set(item.consensusTimestamp, item.payerAccountId);
    if (item.type === 8 && item.successful) {
      const id = contract.contractEntity({ item });
      if (id !== 0n) createdInFile.add(id);
    }
    const transaction = transactionRow({ item, rows, hapiMinor, createdInFile }, mainEntity(item));
    if (NODE_TRANSACTIONS.has(item.type)) node.nodeTransactionBytes(transaction, parsed.items[index] as RawItem);
    const ethereumParentSender =
      item.parentConsensusTimestamp === undefined ? undefined : ethereumSenders.get(item.parentConsensusTimestamp);
    const ctx: ItemContext = { item, rows, transaction, hapiMinor, createdInFile, sidecars, ethereumParentSender };
    deriveCommon(ctx);
    HANDLERS.get(item.type)?.(ctx);
    contract.contractResult(ctx);
    syntheticTransferLogs(ctx);
    airdrop.pendingAirdrops(ctx);
    stakingRewards(ctx);
    if (item.record.scheduleRef) schedule.scheduledExecution(ctx);
    // Inner transactions of an atomic batch list themselves on their parent, in order.
    if (transaction.batch_key && (transaction.nonce as number) === 0 && item.parentConsensusTimestamp !== undefined) {
      const parent = batches.get(item.parentConsensusTimestamp);
      if (parent) {
        const inner = (parent.inner_transactions as bigint[] | null) ?? [];
        inner.push(item.payerAccountId, transaction.valid_start_ns as bigint);
        parent.inner_transactions = inner;
      }
    }
    const result = item.record.contractCallResult ?? item.record.contractCreateResult;
    if (item.type === ETHEREUM_TRANSACTION) {
      const sender = accountId((item.record.contractCreateResult ?? item.record.contractCallResult)?.sender_id);
      if (sender !== 0n) ethereumSenders.set(item.consensusTimestamp, sender);
    }
    if (result && item.parentConsensusTimestamp === undefined) {
      gasUsed += result.gasUsed ?? 0n;
      if (result.bloom && result.bloom.length > 0) bloom = orBloom(bloom, result.bloom);
    }
    if (item.type === ATOMIC_BATCH) batches.set(item.consensusTimestamp, transaction);
    else rows.insert('transaction', transaction);
  }
  rows.dropContractsCreatedBy(createdInFile);
  for (const batch of batches.values()) rows.insert('transaction', batch);
  for (const sidecar of options.sidecars) deriveSidecarRecords(rows, sidecar.file.records, (ts) => payers.get(ts));
  if (options.evmRecords) deriveSidecarRecords(rows, options.evmRecords, (ts) => payers.get(ts));
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
  const loadEnd = BigInt(Math.floor(Date.now() / 1000));
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

function orBloom(current: Uint8Array | undefined, next: Uint8Array): Uint8Array {
  if (!current) return new Uint8Array(next);
  const out = new Uint8Array(Math.max(current.length, next.length));
  for (let i = 0; i < out.length; i++) out[i] = (current[i] ?? 0) | (next[i] ?? 0);
  return out;
}
