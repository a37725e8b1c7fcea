/**
 * Smart contracts: contract entities (create / update / delete), `contract` bytecode rows, and the results
 * every contract call or create records (`contract_result`, `contract_log`). Sidecar data (state changes,
 * actions, bytecode) is joined in sidecar.ts.
 */
import { publicKeyHex } from '../decode/key.ts';
import type { PbContractFunctionResult, PbEntityId } from '../decode/types.ts';
import {
  accountId,
  contractId,
  durationSeconds,
  entityRow,
  fileId,
  type ItemContext,
  nanos,
  serviceBody,
} from './context.ts';
import { stakingColumns } from './crypto.ts';

const CONTRACT_CALL = 7;
const CONTRACT_CREATE = 8;
const ETHEREUM_TRANSACTION = 50;

interface ContractCreateBody {
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
      decline_reward: false,
      deleted: false,
      evm_address: evm && evm.length === 20 ? evm : null,
      key: body.adminKey ?? null,
      public_key: publicKeyHex(body.adminKey),
      max_automatic_token_associations: body.max_automatic_token_associations ?? 0,
      memo: body.memo ?? '',
      staked_account_id: 0n,
      staked_node_id: -1n,
      stake_period_start: -1n,
      type: 'CONTRACT',
      ...stakingColumns(body, ts),
    },
    ts,
  );
  ctx.rows.replace('contract', {
    id,
    file_id: fileId(body.fileID) || null,
    initcode: body.initcode && body.initcode.length > 0 ? body.initcode : null,
  });
}

interface ContractUpdateBody {
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
  const row: Record<string, unknown> = { ...entityRow(id), type: 'CONTRACT', ...stakingColumns(body, ts) };
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

/** A contract_result (+ logs) for contract calls and creates, and for any item whose record carries a result. */
export function contractResult(ctx: ItemContext): void {
  const { item } = ctx;
  const { record } = item;
  const result: PbContractFunctionResult | undefined = record.contractCallResult ?? record.contractCreateResult;
  const isContractType =
    item.type === CONTRACT_CALL || item.type === CONTRACT_CREATE || item.type === ETHEREUM_TRANSACTION;
  if (!isContractType && !result?.contractID) return;
  const body = (item.bodyName ? item.body[item.bodyName] : undefined) as CallBody | undefined;
  const ts = item.consensusTimestamp;
  const target = contractId(result?.contractID) || contractEntity(ctx);
  const hash =
    (record.ethereum_hash && record.ethereum_hash.length > 0 ? record.ethereum_hash : record.transactionHash) ??
    new Uint8Array();
  const txHash = hash.subarray(0, 32);
  const createdIds = (result?.createdContractIDs ?? []).map((c) => contractId(c));
  const functionResult = result?.contractCallResult ?? new Uint8Array();
  const create = item.type === CONTRACT_CREATE;
  ctx.rows.insert('contract_result', {
    amount: (create ? body?.initialBalance : body?.amount) ?? result?.amount ?? 0n,
    bloom: result?.bloom ?? new Uint8Array(),
    call_result: functionResult,
    consensus_timestamp: ts,
    contract_id: target,
    created_contract_ids: createdIds,
    error_message: result?.errorMessage ?? '',
    failed_initcode: null,
    function_parameters:
      (create ? body?.constructorParameters : body?.functionParameters) ??
      result?.functionParameters ??
      new Uint8Array(),
    function_result: functionResult,
    gas_consumed: null,
    gas_limit: body?.gas ?? result?.gas ?? 0n,
    gas_used: result?.gasUsed ?? 0n,
    payer_account_id: item.payerAccountId,
    sender_id: accountId(result?.sender_id) || item.payerAccountId,
    transaction_hash: txHash,
    transaction_index: item.index,
    transaction_nonce: item.body.transactionID?.nonce ?? 0,
    transaction_result: item.status,
  });
  // The lookup of /contracts/results/{hash}: the Ethereum hash, or the first 32 bytes of the transaction hash.
  ctx.rows.insert('contract_transaction_hash', {
    consensus_timestamp: ts,
    entity_id: target,
    hash: txHash,
    payer_account_id: item.payerAccountId,
    transaction_result: item.status,
  });
  result?.logInfo.forEach((log, index) => {
    ctx.rows.insert('contract_log', {
      bloom: log.bloom ?? new Uint8Array(),
      consensus_timestamp: ts,
      contract_id: contractId(log.contractID),
      data: log.data ?? new Uint8Array(),
      index,
      payer_account_id: item.payerAccountId,
      root_contract_id: target,
      topic0: log.topic[0] ?? null,
      topic1: log.topic[1] ?? null,
      topic2: log.topic[2] ?? null,
      topic3: log.topic[3] ?? null,
      transaction_hash: txHash,
      transaction_index: item.index,
    });
  });
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
      { ...entityRow(created), created_timestamp: ts, deleted: false, memo: '', type: 'CONTRACT' },
      ts,
    );
  }
  for (const nonce of result?.contract_nonces ?? []) {
    const id = contractId(nonce.contract_id);
    if (id !== 0n) ctx.rows.change('entity', { ...entityRow(id), ethereum_nonce: nonce.nonce ?? 0n }, ts, false);
  }
}
