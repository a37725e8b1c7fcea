/**
 * Smart contracts: contract entities (create / update / delete) and their `contract` rows. Results and logs are in
 * contract-result.ts, sidecar data (state changes, actions, bytecode) in sidecar.ts.
 */
import { encodeMessage } from '../decode/encode.ts';
import { publicKeyHex } from '../decode/key.ts';
import type { PbEntityId } from '../decode/types.ts';
import {
  accountId,
  contractId,
  contractIdOrAddress,
  durationSeconds,
  entityRow,
  fileId,
  type ItemContext,
  idParts,
  nanos,
  nullable,
  serviceBody,
} from './context.ts';
import { decodedEthereumTransaction, type EthereumBody } from './ethereum.ts';
import { hookChanges, type PbHookCreationDetails } from './hooks.ts';
import { createStaking, updateStaking } from './staking.ts';

const CONTRACT_CREATE = 8;
const ETHEREUM_TRANSACTION = 50;

interface ContractCreateBody {
  hook_creation_details?: PbHookCreationDetails[];
  hook_ids_to_delete?: bigint[];
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
  hookChanges(ctx, id, body.hook_creation_details ?? [], []);
  contractRow(ctx, id, body);
}

/**
 * The `contract` row of a created contract (ContractCreateTransactionHandler.createContract): the body's file and
 * init code, else the init code of its bytecode sidecar, whose runtime bytecode it keeps; a child creation takes
 * what it lacks from its parent, a ContractCreate's file or init code, or an Ethereum transaction's call data file or
 * call data.
 */
function contractRow(ctx: ItemContext, id: bigint, body: ContractCreateBody): void {
  const { item, parent } = ctx;
  const bytecode = ctx.sidecars?.get(item.consensusTimestamp)?.bytecodes.find((b) => b.contractId === id);
  let file = body.fileID ? nullable(fileId(body.fileID)) : null;
  let initcode = body.initcode ?? bytecode?.initcode ?? null;
  if (item.parentConsensusTimestamp !== undefined && parent?.type === CONTRACT_CREATE) {
    const create = parent.body.contractCreateInstance as ContractCreateBody | undefined;
    if (create?.fileID) file ??= nullable(fileId(create.fileID));
    else if (create?.initcode) initcode ??= create.initcode;
  } else if (item.parentConsensusTimestamp !== undefined && parent?.type === ETHEREUM_TRANSACTION) {
    const ethereum = parent.body.ethereumTransaction as EthereumBody | undefined;
    if (ethereum?.call_data && file === null) file = nullable(fileId(ethereum.call_data));
    else initcode ??= decodedEthereumTransaction({ item: parent })?.callData ?? null;
  }
  ctx.rows.replace('contract', { id, file_id: file, initcode, runtime_bytecode: bytecode?.runtimeBytecode ?? null });
}

/** `Key{contractID}` serialized as protobuf-java does: a zero shard or realm is left off the wire. */
function contractIdKey(id: bigint): Uint8Array {
  const { shard, realm, num } = idParts(id);
  const contractID = { ...(shard ? { shardNum: shard } : {}), ...(realm ? { realmNum: realm } : {}), contractNum: num };
  return encodeMessage('proto.Key', { contractID });
}

interface ContractUpdateBody {
  hook_creation_details?: PbHookCreationDetails[];
  hook_ids_to_delete?: bigint[];
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
  hookChanges(ctx, id, body.hook_creation_details ?? [], body.hook_ids_to_delete ?? []);
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

/**
 * The contract a call, update or delete targets or a create created: the transaction's main entity for these
 * types, the receipt's first (handlers' getEntity: `lookup(receipt, body)`), else the body's.
 */
export function contractEntity(ctx: Pick<ItemContext, 'item'>): bigint {
  const { item } = ctx;
  const receipt = contractId(item.record.receipt?.contractID);
  if (item.type === CONTRACT_CREATE) return receipt;
  const body = (item.bodyName ? item.body[item.bodyName] : undefined) as { contractID?: PbEntityId } | undefined;
  return receipt || contractIdOrAddress(body?.contractID);
}
