/**
 * A block transaction → the (Transaction, TransactionRecord) pair a record file would have carried, so the
 * derivation that turns record items into rows serves blocks unchanged (ingest.md §3.3). The record comes from
 * the TransactionResult (fee, transfers, token transfers, assessed fees, associations, staking rewards, parent,
 * schedule ref, multipliers), the body (memo, transaction id), the outputs (EVM results, PRNG, schedules,
 * created accounts), trace data (EVM logs) and state changes (ids of created entities, topic sequence numbers
 * and running hashes, token supplies).
 *
 * A parent's state changes hold the net effect of its children, so the block is transformed in reverse order:
 * a created entity is the largest id of its kind changed in the unit that no later create claimed, and a
 * token's supply before a later mint or burn is the supply after it minus that change.
 */
import type protobuf from 'protobufjs';
import { blockTypes } from '../../proto/block.ts';
import { hapi } from '../../proto/hapi.ts';
import type { BlockTransaction, Plain } from './block-reader.ts';
import { parentTimestamp } from './block-storage.ts';
import type { RawItem } from './record-file.ts';
import { decodeBody } from './record-item.ts';

const SUCCESS_CODES = new Set([22, 104, 220]);
const STATE = { accounts: 2, files: 6, tokens: 7, schedules: 14, nodes: 20, topics: 21 } as const;
const TOPIC_RUNNING_HASH_VERSION = 3n;

const TYPE = {
  cryptoCreate: 11,
  fileCreate: 17,
  topicCreate: 24,
  submitMessage: 27,
  tokenCreate: 29,
  mint: 37,
  burn: 38,
  wipe: 39,
  scheduleCreate: 42,
  nodeCreate: 54,
} as const;

/** bigint → string throughout, the form protobufjs' fromObject takes for 64-bit fields. */
function forProtobuf(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(forProtobuf);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forProtobuf(v)]));
}

const idKey = (id: Plain | undefined, num: string) => `${id?.shardNum ?? 0n}.${id?.realmNum ?? 0n}.${id?.[num] ?? 0n}`;

function decodeValue(type: protobuf.Type, bytes: Uint8Array | undefined): Plain | undefined {
  if (!bytes) return undefined;
  try {
    return type.toObject(type.decode(bytes), { longs: String }) as Plain;
  } catch {
    return undefined;
  }
}

/** What the state changes of one unit (a top-level transaction and its children) tell about entities. */
class Unit {
  /** Per state id: map keys updated, in order, as [sort key, key object]. */
  readonly updated = new Map<number, { order: bigint; key: Plain }[]>();
  readonly claimed = new Set<string>();
  readonly topics = new Map<string, Plain>();
  readonly supplies = new Map<string, bigint>();

  add(changes: readonly Plain[]): void {
    const types = blockTypes();
    for (const change of changes) {
      const update = change.map_update as Plain | undefined;
      if (!update?.key) continue;
      const stateId = Number(change.state_id ?? 0);
      const list = this.updated.get(stateId) ?? [];
      list.push({ order: orderOf(update.key), key: update.key });
      this.updated.set(stateId, list);
      const value = update.value as Plain | undefined;
      if (stateId === STATE.topics && value?.topic_value) {
        const topic = decodeValue(types.TopicValue, value.topic_value);
        if (topic) this.topics.set(idKey(update.key.topic_id_key, 'topicNum'), topic);
      }
      if (stateId === STATE.tokens && value?.token_value) {
        const token = decodeValue(types.TokenValue, value.token_value);
        if (token?.total_supply !== undefined) {
          this.supplies.set(idKey(update.key.token_id_key, 'tokenNum'), BigInt(token.total_supply));
        }
      }
    }
  }

  /** The largest key of `stateId` that no later create took. */
  claim(stateId: number, field: string): Plain | undefined {
    const candidates = [...(this.updated.get(stateId) ?? [])]
      .filter((c) => c.key[field] !== undefined)
      .sort((a, b) => (a.order < b.order ? 1 : a.order > b.order ? -1 : 0));
    for (const candidate of candidates) {
      const key = `${stateId}/${candidate.order}`;
      if (this.claimed.has(key)) continue;
      this.claimed.add(key);
      return candidate.key[field] as Plain;
    }
    return undefined;
  }
}

function orderOf(key: Plain): bigint {
  const id = Object.values(key)[0] as Plain | undefined;
  if (!id || typeof id !== 'object') return 0n;
  if (typeof id.value === 'bigint') return id.value;
  const num = Object.entries(id).find(([name]) => name.endsWith('Num') && !['shardNum', 'realmNum'].includes(name));
  return ((id.shardNum ?? 0n) << 54n) | ((id.realmNum ?? 0n) << 38n) | ((num?.[1] as bigint | undefined) ?? 0n);
}

function evmResult(outputs: readonly Plain[]): { result: Plain; create: boolean } | undefined {
  for (const output of outputs) {
    if (output.contract_call?.evm_transaction_result)
      return { result: output.contract_call.evm_transaction_result, create: false };
    if (output.contract_create?.evm_transaction_result)
      return { result: output.contract_create.evm_transaction_result, create: true };
    const ethereum = output.ethereum_call;
    if (ethereum?.evm_call_transaction_result) return { result: ethereum.evm_call_transaction_result, create: false };
    if (ethereum?.evm_create_transaction_result)
      return { result: ethereum.evm_create_transaction_result, create: true };
  }
  return undefined;
}

function contractFunctionResult(evm: Plain, traces: readonly Plain[]): Plain {
  const logs = traces.flatMap((t) => (t.evm_trace_data?.logs ?? []) as Plain[]);
  const context = evm.internal_call_context as Plain | undefined;
  return {
    ...(evm.contract_id ? { contractID: evm.contract_id } : {}),
    contractCallResult: evm.result_data ?? new Uint8Array(),
    errorMessage: evm.error_message ?? '',
    gasUsed: evm.gas_used ?? 0n,
    ...(evm.sender_id ? { sender_id: evm.sender_id } : {}),
    ...(context ? { gas: context.gas ?? 0n, amount: context.value ?? 0n, functionParameters: context.call_data } : {}),
    logInfo: logs.map((log) => ({
      contractID: log.contract_id,
      data: log.data ?? new Uint8Array(),
      topic: log.topics ?? [],
    })),
  };
}

/** The record of one transaction; `unit` is shared by a parent and its children, visited in reverse order. */
function recordOf(tx: BlockTransaction, type: number, body: Plain, unit: Unit): Plain {
  const result = tx.result;
  const success = SUCCESS_CODES.has(Number(result.status ?? 0));
  const receipt: Plain = { status: result.status ?? 0 };
  const record: Plain = {
    receipt,
    transactionHash: tx.transactionHash,
    consensusTimestamp: result.consensus_timestamp,
    transactionID: body.transactionID,
    memo: new TextDecoder().decode((body.memo as Uint8Array | undefined) ?? new Uint8Array()),
    transactionFee: result.transaction_fee_charged ?? 0n,
    transferList: result.transfer_list ?? { accountAmounts: [] },
    tokenTransferLists: result.token_transfer_lists ?? [],
    assessed_custom_fees: result.assessed_custom_fees ?? [],
    automatic_token_associations: result.automatic_token_associations ?? [],
    paid_staking_rewards: result.paid_staking_rewards ?? [],
    ...(result.parent_consensus_timestamp ? { parent_consensus_timestamp: result.parent_consensus_timestamp } : {}),
    ...(result.schedule_ref ? { scheduleRef: result.schedule_ref } : {}),
    ...(result.high_volume_pricing_multiplier
      ? { high_volume_pricing_multiplier: result.high_volume_pricing_multiplier }
      : {}),
  };
  const evm = evmResult(tx.outputs);
  if (evm) {
    record[evm.create ? 'contractCreateResult' : 'contractCallResult'] = contractFunctionResult(evm.result, tx.traces);
    if (evm.result.contract_id) receipt.contractID = evm.result.contract_id;
  }
  for (const output of tx.outputs) {
    if (output.util_prng?.prng_bytes) record.prng_bytes = output.util_prng.prng_bytes;
    if (output.util_prng?.prng_number !== undefined) record.prng_number = output.util_prng.prng_number;
    const scheduled =
      output.create_schedule?.scheduled_transaction_id ?? output.sign_schedule?.scheduled_transaction_id;
    if (scheduled) receipt.scheduledTransactionID = scheduled;
    if (output.create_schedule?.schedule_id) receipt.scheduleID = output.create_schedule.schedule_id;
    if (output.account_create?.created_account_id) receipt.accountID = output.account_create.created_account_id;
  }
  if (!success) return record;
  switch (type) {
    case TYPE.cryptoCreate: {
      const alias = (body.cryptoCreateAccount as Plain | undefined)?.alias as Uint8Array | undefined;
      if (alias?.length === 20) record.evm_address = alias;
      receipt.accountID ??= unit.claim(STATE.accounts, 'account_id_key');
      break;
    }
    case TYPE.fileCreate:
      receipt.fileID = unit.claim(STATE.files, 'file_id_key');
      break;
    case TYPE.topicCreate:
      receipt.topicID = unit.claim(STATE.topics, 'topic_id_key');
      break;
    case TYPE.submitMessage: {
      const topic = unit.topics.get(idKey((body.consensusSubmitMessage as Plain | undefined)?.topicID, 'topicNum'));
      if (topic) {
        receipt.topicSequenceNumber = topic.sequence_number;
        receipt.topicRunningHash = topic.running_hash;
        receipt.topicRunningHashVersion = TOPIC_RUNNING_HASH_VERSION;
      }
      break;
    }
    case TYPE.tokenCreate: {
      receipt.tokenID = unit.claim(STATE.tokens, 'token_id_key');
      const supply = receipt.tokenID ? unit.supplies.get(idKey(receipt.tokenID, 'tokenNum')) : undefined;
      if (supply !== undefined) receipt.newTotalSupply = supply;
      break;
    }
    case TYPE.mint:
    case TYPE.burn:
    case TYPE.wipe:
      supplyChange(type, body, record, receipt, unit);
      break;
    case TYPE.scheduleCreate:
      receipt.scheduleID ??= unit.claim(STATE.schedules, 'schedule_id_key');
      break;
    case TYPE.nodeCreate: {
      const node = unit.claim(STATE.nodes, 'entity_number_key');
      if (node) receipt.node_id = node.value ?? 0n;
      break;
    }
  }
  return record;
}

function supplyChange(type: number, body: Plain, record: Plain, receipt: Plain, unit: Unit): void {
  const op = (body.tokenMint ?? body.tokenBurn ?? body.tokenWipe) as Plain | undefined;
  const token = idKey(op?.token, 'tokenNum');
  const serials: bigint[] = [];
  for (const list of record.tokenTransferLists as Plain[]) {
    for (const nft of (list.nftTransfers ?? []) as Plain[]) serials.push(BigInt(nft.serialNumber ?? 0n));
  }
  if (type === TYPE.mint) receipt.serialNumbers = serials.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const supply = unit.supplies.get(token);
  if (supply === undefined) return;
  receipt.newTotalSupply = supply;
  const amount =
    BigInt(op?.amount ?? 0n) +
    BigInt((op?.metadata as unknown[] | undefined)?.length ?? 0) +
    BigInt((op?.serialNumbers as unknown[] | undefined)?.length ?? 0);
  // Before this transaction the supply was smaller by a mint, larger by a burn or wipe.
  unit.supplies.set(token, type === TYPE.mint ? supply - amount : supply + amount);
}

/** Every transaction of a block as the raw items of an equivalent record file, in block order. */
export function blockRecordItems(transactions: readonly BlockTransaction[]): RawItem[] {
  const types = hapi();
  const out: RawItem[] = new Array(transactions.length);
  const units = new Map<bigint, Unit>();
  const unitOf = (tx: BlockTransaction) => {
    const key = parentTimestamp(tx) ?? tx.consensusTimestamp;
    let unit = units.get(key);
    if (!unit) {
      unit = new Unit();
      units.set(key, unit);
    }
    return unit;
  };
  for (const tx of transactions) unitOf(tx).add(tx.stateChanges);
  for (let i = transactions.length - 1; i >= 0; i--) {
    const tx = transactions[i] as BlockTransaction;
    const { body, type } = decodeBody(tx.bodyBytes);
    const record = recordOf(tx, type, body as Plain, unitOf(tx));
    const transaction = tx.legacyTransactionBytes
      ? types.Transaction.decode(tx.legacyTransactionBytes)
      : types.Transaction.fromObject({ signedTransactionBytes: tx.signedTransactionBytes });
    out[i] = {
      transaction,
      record: types.TransactionRecord.fromObject(forProtobuf(record) as Plain),
      // Only block streams report it (no record field holds it); the importer stores it as read, 0 when unset.
      congestionPricingMultiplier: BigInt(String(tx.result.congestion_pricing_multiplier ?? 0)),
    };
  }
  return out;
}
