/**
 * The results contract transactions record (ContractResultServiceImpl): `contract_result` and its EVM logs
 * (`contract_log`), the `contract_transaction_hash` lookup, the entities a result lists as created and the nonces it
 * reports; for every contract call and create and any other item whose record carries a function result (Ethereum
 * transactions, precompile calls), and a default row for an Ethereum transaction that failed before the EVM ran.
 */
import { encodeMessage } from '../decode/encode.ts';
import { toBigInt } from '../decode/ethereum-transaction.ts';
import type { PbContractFunctionResult, PbEntityId } from '../decode/types.ts';
import {
  accountId,
  contractId,
  contractIdOrAddress,
  entityRow,
  fileId,
  type ItemContext,
  idParts,
  nullable,
} from './context.ts';
import { contractEntity } from './contract.ts';
import { decodedEthereumTransaction, ethereumHash, itemTransactionHash } from './ethereum.ts';
import { HOOK_CONTRACT_NUM, isHookExecution } from './hooks.ts';
import type { SidecarFacts } from './sidecar.ts';

const CONTRACT_CALL = 7;
const CONTRACT_CREATE = 8;
const ETHEREUM_TRANSACTION = 50;
const DUPLICATE_TRANSACTION = 11;
const WRONG_NONCE = 312;
/** From services 0.23 a contract created by another's code has a child record of its own (a ContractCreate). */
const CHILD_CREATE_RECORDS_MINOR = 23;

interface CallBody {
  contractID?: PbEntityId;
  initcode?: Uint8Array;
  gas?: bigint;
  amount?: bigint;
  functionParameters?: Uint8Array;
  initialBalance?: bigint;
  constructorParameters?: Uint8Array;
  max_gas_allowance?: bigint;
  adminKey?: Uint8Array;
  autoRenewPeriod?: { seconds?: bigint };
  proxyAccountID?: PbEntityId;
  memo?: string;
  fileID?: PbEntityId;
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
  const target = callOrCreate ? contractEntity(ctx) : contractIdOrAddress(result?.contractID);
  const txHash = itemTransactionHash(item);
  const createdIds = (result?.createdContractIDs ?? []).map((c) => contractIdOrAddress(c)).filter((id) => id !== 0n);
  const fromBody = callOrCreate && body !== undefined;
  const call = fromBody
    ? {
        amount: (create ? body.initialBalance : body.amount) ?? 0n,
        gas: body.gas ?? 0n,
        parameters: (create ? body.constructorParameters : body.functionParameters) ?? new Uint8Array(),
      }
    : item.fromBlockStream && item.type === ETHEREUM_TRANSACTION
      ? blockEthereumCall(ctx)
      : {
          amount: result ? (result.amount ?? 0n) : null,
          gas: result ? (result.gas ?? 0n) : null,
          parameters: result?.functionParameters ?? new Uint8Array(),
        };
  const functionParameters = call.parameters;
  const sidecar = ctx.sidecars?.get(ts);
  // The init code the importer takes from a creation's sidecars: a ContractCreate's own, else its bytecode record's.
  const sidecarInitcode =
    sidecar?.initcode !== undefined && create ? (body?.initcode?.length ? body.initcode : sidecar.initcode) : undefined;
  const gasUsed = result ? (result.gasUsed ?? 0n) : null;
  ctx.rows.insert('contract_result', {
    amount: call.amount,
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
    gas_limit: call.gas,
    gas_used: gasUsed,
    payer_account_id: item.payerAccountId,
    sender_id: result?.sender_id ? nullable(accountId(result.sender_id)) : item.payerAccountId,
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
  // The contract transaction's entities, as the importer gathers them: its storage changes' contracts, its logs'
  // contracts, the contract and the payer.
  ctx.rows.involve(
    ts,
    [
      ...(sidecar?.stateContracts ?? []).filter((id) => !isHookExecution(ctx) || idParts(id).num !== HOOK_CONTRACT_NUM),
      ...(result?.logInfo ?? []).map((l) => contractId(l.contractID)),
      target,
      item.payerAccountId,
    ],
    item.payerAccountId,
  );
  if (result && item.successful && ctx.hapiMinor < CHILD_CREATE_RECORDS_MINOR) {
    for (const created of createdIds) if (created !== target) createdByResult(ctx, created, create ? body : undefined);
  }
  for (const nonce of result?.contract_nonces ?? []) {
    const id = contractId(nonce.contract_id);
    if (id !== 0n) {
      ctx.rows.change('entity', { ...entityRow(id), ethereum_nonce: nonce.nonce ?? 0n, type: 'CONTRACT' }, ts, false);
    }
  }
}

/**
 * What a block stream's Ethereum transaction, whose result has no call context, takes from its signed transaction
 * (EthereumTransactionHandler.updateContractResult): the value as a long, the gas limit, the call data; gas limit 0
 * and no parameters when the data does not decode. Call data in a file is not read here: the parameters stay empty.
 */
function blockEthereumCall(ctx: ItemContext): { amount: bigint | null; gas: bigint; parameters: Uint8Array } {
  const tx = decodedEthereumTransaction(ctx);
  if (!tx) return { amount: null, gas: 0n, parameters: new Uint8Array() };
  return { amount: BigInt.asIntN(64, toBigInt(tx.value)), gas: tx.gasLimit, parameters: tx.callData };
}

/**
 * A contract another's code created, before services 0.23 gave it a record of its own
 * (processCreatedContractEntity): a contract from then on with balance 0, and, inside a ContractCreate, the
 * creating body's renewal period, key, proxy, memo and file.
 */
function createdByResult(ctx: ItemContext, id: bigint, create: CallBody | undefined): void {
  const ts = ctx.item.consensusTimestamp;
  const row: Record<string, unknown> = {
    ...entityRow(id),
    created_timestamp: ts,
    deleted: false,
    max_automatic_token_associations: 0,
    type: 'CONTRACT',
  };
  if (create) {
    if (create.autoRenewPeriod) row.auto_renew_period = create.autoRenewPeriod.seconds ?? 0n;
    if (create.adminKey) row.key = create.adminKey;
    if (create.proxyAccountID) row.proxy_account_id = nullable(accountId(create.proxyAccountID));
    row.memo = create.memo ?? '';
    ctx.rows.replace('contract', { id, file_id: create.fileID ? nullable(fileId(create.fileID)) : null });
  }
  ctx.rows.change('entity', row, ts);
  ctx.rows.addEntityBalance(id, 0n, ts);
}
