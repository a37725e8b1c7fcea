/**
 * Smart contracts: contract entities (create / update / delete), `contract` bytecode rows, and the results
 * every contract call or create records (`contract_result`, `contract_log`). Sidecar data (state changes,
 * actions, bytecode) is joined in sidecar.ts.
 */
import { encodeMessage } from '../decode/encode.ts';
import { publicKeyHex } from '../decode/key.ts';
import type { PbContractFunctionResult, PbEntityId } from '../decode/types.ts';
import {
  accountId,
  contractId,
  durationSeconds,
  entityRow,
  fileId,
  type ItemContext,
  idParts,
  nanos,
  nullable,
  serviceBody,
} from './context.ts';
import { decodedEthereumTransaction, ethereumHash, itemTransactionHash } from './ethereum.ts';
import type { SidecarFacts } from './sidecar.ts';
import { createStaking, updateStaking } from './staking.ts';

const CONTRACT_CALL = 7;
const CONTRACT_CREATE = 8;
const ETHEREUM_TRANSACTION = 50;
const DUPLICATE_TRANSACTION = 11;
const WRONG_NONCE = 312;

interface ContractCreateBody {
  proxyAccountID?: PbEntityId;
  fileID?: PbEntityId;
  initcode?: Uint8Array;
  adminKey?: Uint8Array;
  gas?: bigint;
  initialBalance?: bigint;
  autoRenewPeriod?: { seconds?: bigint };
  constructorParameters?: Uint8Array;
  memo?: string;
  max_automatic_token_associations?: number;
  auto_renew_account_id?: PbEntityId;
  staked_account_id?: PbEntityId;
  staked_node_id?: bigint;
  decline_reward?: boolean;
}

export function contractCreate(ctx: ItemContext): void {
  const { item } = ctx;
  const body = serviceBody<ContractCreateBody>(ctx);
  ctx.transaction.initial_balance = body.initialBalance ?? 0n;
  if (!item.successful) return;
  const id = contractId(item.record.receipt?.contractID);
  if (id === 0n) return;
  const ts = item.consensusTimestamp;
  const evm = item.record.contractCreateResult?.evm_address?.value;
  ctx.rows.change(
    'entity',
    {
      ...entityRow(id),
      auto_renew_account_id: accountId(body.auto_renew_account_id) || null,
      auto_renew_period: durationSeconds(body.autoRenewPeriod) ?? null,
      created_timestamp: ts,
      deleted: false,
      // Unlike an account's, a contract's nonce has no default: NULL until a record reports it.
      ethereum_nonce: null,
      evm_address: evm && evm.length === 20 ? evm : null,
      // Without an admin key the network keys the contract to itself, Key{contractID}, as the importer stores it.
      key: body.adminKey ?? contractIdKey(id),
      public_key: publicKeyHex(body.adminKey),
      max_automatic_token_associations: body.max_automatic_token_associations ?? 0,
      memo: body.memo ?? '',
      proxy_account_id: nullable(accountId(body.proxyAccountID)),
      type: 'CONTRACT',
      ...createStaking(body, ts, ctx.hapiMinor),
    },
    ts,
  );
  ctx.rows.addEntityBalance(id, 0n, ts);
  ctx.rows.replace('contract', {
    id,
    file_id: fileId(body.fileID) || null,
    initcode: body.initcode && body.initcode.length > 0 ? body.initcode : null,
  });
}

/** `Key{contractID}` serialized as protobuf-java does: a zero shard or realm is left off the wire. */
function contractIdKey(id: bigint): Uint8Array {
  const { shard, realm, num } = idParts(id);
  const contractID = { ...(shard ? { shardNum: shard } : {}), ...(realm ? { realmNum: realm } : {}), contractNum: num };
  return encodeMessage('proto.Key', { contractID });
}

interface ContractUpdateBody {
  proxyAccountID?: PbEntityId;
  contractID?: PbEntityId;
  expirationTime?: unknown;
  adminKey?: Uint8Array;
  autoRenewPeriod?: { seconds?: bigint };
  memoWrapper?: { value?: string };
  memo?: string;
  max_automatic_token_associations?: { value?: number };
  auto_renew_account_id?: PbEntityId;
  staked_account_id?: PbEntityId;
  staked_node_id?: bigint;
  decline_reward?: { value?: boolean };
}

export function contractUpdate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<ContractUpdateBody>(ctx);
  const id = contractId(body.contractID);
  if (id === 0n) return;
  const ts = ctx.item.consensusTimestamp;
  // Any successful update marks the entity not deleted (the importer's entity operation UPDATE).
  const row: Record<string, unknown> = {
    ...entityRow(id),
    deleted: false,
    type: 'CONTRACT',
    ...updateStaking(body, ts, ctx.hapiMinor),
  };
  if (body.proxyAccountID) row.proxy_account_id = nullable(accountId(body.proxyAccountID));
  if (body.expirationTime) row.expiration_timestamp = nanos(body.expirationTime);
  if (body.adminKey) {
    row.key = body.adminKey;
    row.public_key = publicKeyHex(body.adminKey);
  }
  if (body.autoRenewPeriod) row.auto_renew_period = durationSeconds(body.autoRenewPeriod) ?? null;
  if (body.memoWrapper) row.memo = body.memoWrapper.value ?? '';
  else if (body.memo) row.memo = body.memo;
  if (body.max_automatic_token_associations)
    row.max_automatic_token_associations = body.max_automatic_token_associations.value ?? 0;
  if (body.auto_renew_account_id) row.auto_renew_account_id = accountId(body.auto_renew_account_id);
  ctx.rows.change('entity', row, ts);
}

export function contractDelete(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<{
    contractID?: PbEntityId;
    transferAccountID?: PbEntityId;
    transferContractID?: PbEntityId;
    permanent_removal?: boolean;
  }>(ctx);
  const id = contractId(body.contractID);
  if (id === 0n) return;
  ctx.rows.change(
    'entity',
    {
      ...entityRow(id),
      deleted: true,
      obtainer_id: accountId(body.transferAccountID) || contractId(body.transferContractID) || null,
      permanent_removal: body.permanent_removal ?? false,
      type: 'CONTRACT',
    },
    ctx.item.consensusTimestamp,
  );
}

interface CallBody {
  contractID?: PbEntityId;
  initcode?: Uint8Array;
  gas?: bigint;
  amount?: bigint;
  functionParameters?: Uint8Array;
  initialBalance?: bigint;
  constructorParameters?: Uint8Array;
  max_gas_allowance?: bigint;
}

/** The contract a call targets or a create created: the transaction's main entity for these types. */
export function contractEntity(ctx: Pick<ItemContext, 'item'>): bigint {
  const { item } = ctx;
  if (item.type === CONTRACT_CREATE) return contractId(item.record.receipt?.contractID);
  const body = (item.bodyName ? item.body[item.bodyName] : undefined) as { contractID?: PbEntityId } | undefined;
  return contractId(body?.contractID) || contractId(item.record.receipt?.contractID);
}

/** ContractFunctionResult equal to its default instance: the importer treats it as absent. */
export function isResultSet(result: PbContractFunctionResult | undefined): result is PbContractFunctionResult {
  if (!result) return false;
  return (
    result.contractID !== undefined ||
    (result.contractCallResult?.length ?? 0) > 0 ||
    !!result.errorMessage ||
    (result.bloom?.length ?? 0) > 0 ||
    !!result.gasUsed ||
    result.logInfo.length > 0 ||
    result.createdContractIDs.length > 0 ||
    result.evm_address !== undefined ||
    !!result.gas ||
    !!result.amount ||
    (result.functionParameters?.length ?? 0) > 0 ||
    result.sender_id !== undefined ||
    result.contract_nonces.length > 0 ||
    result.signer_nonce !== undefined
  );
}

/** A log topic without its leading zero bytes (one byte at least), as the importer's Utility.getTopic stores it. */
function trimmedTopic(topic: Uint8Array | undefined): Uint8Array | null {
  if (topic === undefined) return null;
  const first = topic.findIndex((byte, index) => byte !== 0 || index === topic.length - 1);
  return topic.subarray(Math.max(first, 0));
}

/** A bloom of 256 zero bytes is stored empty, as the importer's ContractResult.setBloom does. */
function storedBloom(bloom: Uint8Array | undefined): Uint8Array {
  const bytes = bloom ?? new Uint8Array();
  return bytes.length === 256 && bytes.every((b) => b === 0) ? new Uint8Array() : bytes;
}

/** Records from HAPI 0.69 on report the gas consumed as gas used (the importer's smartContractThrottlingVersion). */
const GAS_USED_IS_CONSUMED_MINOR = 69;

/**
 * gas_consumed as the importer computes it: the gas used from HAPI 0.69 on; before, the top-level action's gas
 * used plus the intrinsic gas of the payload (21,000, 4 per zero byte and 16 per other byte, 32,000 more for a
 * creation), NULL without actions in the sidecars.
 */
function gasConsumed(
  ctx: ItemContext,
  gasUsed: bigint | null,
  sidecar: SidecarFacts | undefined,
  payload: Uint8Array,
): bigint | null {
  if (ctx.hapiMinor >= GAS_USED_IS_CONSUMED_MINOR) return gasUsed;
  if (sidecar?.topLevelGasUsed === undefined) return null;
  let intrinsic = 21_000n;
  for (const byte of payload) intrinsic += byte === 0 ? 4n : 16n;
  if (sidecar.creation) intrinsic += 32_000n;
  return sidecar.topLevelGasUsed + intrinsic;
}

/**
 * The contract_result of an Ethereum transaction that failed before the EVM ran (its record has no function
 * result), as the importer adds it: none for a success, DUPLICATE_TRANSACTION or WRONG_NONCE.
 */
function defaultEthereumResult(ctx: ItemContext): void {
  const { item } = ctx;
  if (item.type !== ETHEREUM_TRANSACTION || item.successful) return;
  if (item.status === DUPLICATE_TRANSACTION || item.status === WRONG_NONCE) return;
  const tx = decodedEthereumTransaction(ctx);
  if (!tx) return;
  const hash = ethereumHash(ctx, tx);
  ctx.rows.insert('contract_result', {
    amount: null,
    bloom: null,
    call_result: new Uint8Array(),
    consensus_timestamp: item.consensusTimestamp,
    contract_id: 0n,
    created_contract_ids: [],
    error_message: null,
    failed_initcode: null,
    function_parameters: tx.callData,
    function_result: null,
    gas_consumed: null,
    gas_limit: tx.gasLimit,
    gas_used: 0n,
    payer_account_id: item.payerAccountId,
    sender_id: item.payerAccountId,
    transaction_hash: hash,
    transaction_index: item.index,
    transaction_nonce: item.body.transactionID?.nonce ?? 0,
    transaction_result: item.status,
  });
  contractTransactionHash(ctx, 0n, hash);
}

/** The contract_transaction_hash row that finds a contract result by its transaction hash. */
function contractTransactionHash(ctx: ItemContext, entityId: bigint, hash: Uint8Array): void {
  ctx.rows.insert('contract_transaction_hash', {
    consensus_timestamp: ctx.item.consensusTimestamp,
    entity_id: entityId,
    hash,
    payer_account_id: ctx.item.payerAccountId,
    transaction_result: ctx.item.status,
  });
}

/**
 * A contract_result (+ logs) as the importer writes one: for every contract call and create, and for any other
 * item whose record carries a function result (Ethereum transactions, precompile calls); amount, gas limit and
 * parameters from a call's or create's body, else from the function result; the result's own columns only when
 * the record has one.
 */
export function contractResult(ctx: ItemContext): void {
  const { item } = ctx;
  const { record } = item;
  const recorded = record.contractCallResult ?? record.contractCreateResult;
  const result = isResultSet(recorded) ? recorded : undefined;
  const create = item.type === CONTRACT_CREATE;
  const callOrCreate = item.type === CONTRACT_CALL || create;
  if (!callOrCreate && !result) {
    defaultEthereumResult(ctx);
    return;
  }
  const body = (item.bodyName ? item.body[item.bodyName] : undefined) as CallBody | undefined;
  const ts = item.consensusTimestamp;
  const target = callOrCreate ? contractEntity(ctx) : contractId(result?.contractID);
  const txHash = itemTransactionHash(item);
  const createdIds = (result?.createdContractIDs ?? []).map((c) => contractId(c));
  const fromBody = callOrCreate && body !== undefined;
  const functionParameters = fromBody
    ? ((create ? body.constructorParameters : body.functionParameters) ?? new Uint8Array())
    : (result?.functionParameters ?? new Uint8Array());
  const sidecar = ctx.sidecars?.get(ts);
  // The init code the importer takes from a creation's sidecars: a ContractCreate's own, else its bytecode record's.
  const sidecarInitcode =
    sidecar?.initcode !== undefined && create ? (body?.initcode?.length ? body.initcode : sidecar.initcode) : undefined;
  const gasUsed = result ? (result.gasUsed ?? 0n) : null;
  ctx.rows.insert('contract_result', {
    amount: fromBody ? ((create ? body.initialBalance : body.amount) ?? 0n) : result ? (result.amount ?? 0n) : null,
    bloom: result ? storedBloom(result.bloom) : null,
    call_result: result ? (result.contractCallResult ?? new Uint8Array()) : null,
    consensus_timestamp: ts,
    contract_id: target,
    created_contract_ids: createdIds,
    error_message: result ? (result.errorMessage ?? '') : null,
    failed_initcode: item.successful
      ? null
      : create && body?.initcode && body.initcode.length > 0
        ? body.initcode
        : (sidecarInitcode ?? null),
    function_parameters: functionParameters,
    function_result: result ? encodeMessage('proto.ContractFunctionResult', result) : null,
    gas_consumed: result ? gasConsumed(ctx, gasUsed, sidecar, sidecarInitcode ?? functionParameters) : null,
    gas_limit: fromBody ? (body.gas ?? 0n) : result ? (result.gas ?? 0n) : null,
    gas_used: gasUsed,
    payer_account_id: item.payerAccountId,
    sender_id: (result?.sender_id ? accountId(result.sender_id) : 0n) || item.payerAccountId,
    transaction_hash: txHash,
    transaction_index: item.index,
    transaction_nonce: item.body.transactionID?.nonce ?? 0,
    transaction_result: item.status,
  });
  // The lookup of /contracts/results/{hash}: the Ethereum hash, or the first 32 bytes of the transaction hash.
  contractTransactionHash(ctx, target, txHash);
  for (const log of result?.logInfo ?? []) {
    ctx.rows.insert('contract_log', {
      bloom: log.bloom ?? new Uint8Array(),
      consensus_timestamp: ts,
      contract_id: nullable(contractId(log.contractID)),
      data: log.data ?? new Uint8Array(),
      index: ctx.rows.nextLogIndex(),
      payer_account_id: item.payerAccountId,
      root_contract_id: nullable(target),
      synthetic: false,
      topic0: trimmedTopic(log.topic[0]),
      topic1: trimmedTopic(log.topic[1]),
      topic2: trimmedTopic(log.topic[2]),
      topic3: trimmedTopic(log.topic[3]),
      transaction_hash: txHash,
      transaction_index: item.index,
    });
  }
  ctx.rows.involve(
    ts,
    [
      target,
      item.payerAccountId,
      accountId(result?.sender_id),
      ...createdIds,
      ...(result?.logInfo ?? []).map((l) => contractId(l.contractID)),
    ],
    item.payerAccountId,
  );
  // Contracts created by this one (pre-v6 records list them only here).
  for (const created of createdIds) {
    // A ContractCreate of this file making it writes the entity itself (one later in the file: the change is
    // dropped after the last item, see record-file.ts).
    if (created === 0n || (create && created === target) || ctx.createdInFile.has(created)) continue;
    ctx.rows.contractCreatedByResult(
      created,
      {
        ...entityRow(created),
        created_timestamp: ts,
        deleted: false,
        ethereum_nonce: null,
        max_automatic_token_associations: 0,
        memo: '',
        type: 'CONTRACT',
      },
      ts,
    );
    // A new contract's balance starts at 0, never NULL (the importer's entity upsert adds to 0 for contracts).
    ctx.rows.addEntityBalance(created, 0n, ts);
  }
  for (const nonce of result?.contract_nonces ?? []) {
    const id = contractId(nonce.contract_id);
    if (id !== 0n) {
      ctx.rows.change('entity', { ...entityRow(id), ethereum_nonce: nonce.nonce ?? 0n, type: 'CONTRACT' }, ts, false);
    }
  }
}
