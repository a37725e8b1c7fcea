/**
 * HIP-1195 hooks, as the importer's EVMHookHandler, HookStoreTransactionHandler and ContractResultServiceImpl write
 * them: `hook` rows from the hook creation details and deletions of CryptoCreate / CryptoUpdate / ContractCreate /
 * ContractUpdate, `hook_storage_change` and current `hook_storage` from a hook's storage updates (at creation or by a
 * HookStore) and from the storage changes a hook execution's sidecars report for the hook contract 0.0.365.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { RecordItem } from '../decode/record-item.ts';
import type { PbEntityId } from '../decode/types.ts';
import { accountId, contractIdOrAddress, type ItemContext, idParts, nullable } from './context.ts';

/** The system contract every EVM hook runs as (RecordItem.HOOK_CONTRACT_NUM). */
export const HOOK_CONTRACT_NUM = 365n;
const KEY_BYTES = 32;

interface PbStorageSlot {
  key?: Uint8Array;
  value?: Uint8Array;
}

interface PbMappingEntry {
  key?: Uint8Array;
  preimage?: Uint8Array;
  value?: Uint8Array;
}

export interface PbStorageUpdate {
  storage_slot?: PbStorageSlot;
  mapping_entries?: { mapping_slot?: Uint8Array; entries: PbMappingEntry[] };
}

export interface PbHookCreationDetails {
  hook_id?: bigint;
  evm_hook?: { spec?: { contract_id?: PbEntityId }; storage_updates: PbStorageUpdate[] };
  admin_key?: Uint8Array;
}

function leftPadded(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= KEY_BYTES) return bytes;
  const out = new Uint8Array(KEY_BYTES);
  out.set(bytes, KEY_BYTES - bytes.length);
  return out;
}

/** DomainUtils.trim: without leading zero bytes. */
function trimmed(bytes: Uint8Array): Uint8Array {
  const first = bytes.findIndex((byte) => byte !== 0);
  return first < 0 ? new Uint8Array() : bytes.subarray(first);
}

/** One storage slot a hook wrote (or read): a `hook_storage_change` row and, when written, the current value. */
export function hookStorageChange(
  ctx: ItemContext,
  hookId: bigint,
  ownerId: bigint,
  key: Uint8Array,
  valueRead: Uint8Array,
  valueWritten: Uint8Array | undefined,
): void {
  const ts = ctx.item.consensusTimestamp;
  const written = valueWritten === undefined ? null : trimmed(valueWritten);
  ctx.rows.insert('hook_storage_change', {
    consensus_timestamp: ts,
    deleted: written !== null && written.length === 0,
    hook_id: hookId,
    key,
    owner_id: ownerId,
    value_read: trimmed(valueRead),
    value_written: written,
  });
  if (written !== null) ctx.rows.hookStorageWrite({ hookId, ownerId, key: leftPadded(key), value: written, ts });
}

/**
 * A batch of storage updates (EVMHookHandler.StorageUpdateContext): read from the end, the last value of a slot
 * winning; a mapping entry's slot is keccak256(key, mapping slot), its key padded to 32 bytes or the Keccak-256 of
 * its preimage. Each slot is written as read and written.
 */
export function hookStorageUpdates(
  ctx: ItemContext,
  hookId: bigint,
  ownerId: bigint,
  updates: readonly PbStorageUpdate[],
): void {
  const seen = new Set<string>();
  const persist = (key: Uint8Array, value: Uint8Array) => {
    const id = Buffer.from(key).toString('hex');
    if (seen.has(id)) return;
    seen.add(id);
    hookStorageChange(ctx, hookId, ownerId, key, value, value);
  };
  for (const update of updates.toReversed()) {
    if (update.storage_slot) {
      persist(update.storage_slot.key ?? new Uint8Array(), update.storage_slot.value ?? new Uint8Array());
    } else if (update.mapping_entries) {
      const slot = leftPadded(update.mapping_entries.mapping_slot ?? new Uint8Array());
      for (const entry of update.mapping_entries.entries.toReversed()) {
        const key = entry.key !== undefined ? leftPadded(entry.key) : keccak_256(entry.preimage ?? new Uint8Array());
        persist(keccak_256(Uint8Array.from([...key, ...slot])), entry.value ?? new Uint8Array());
      }
    }
  }
}

/** The hooks an account or contract create or update adds and removes (EVMHookHandler.process): removals first. */
export function hookChanges(
  ctx: ItemContext,
  ownerId: bigint,
  creations: readonly PbHookCreationDetails[],
  deletions: readonly bigint[],
): void {
  const ts = ctx.item.consensusTimestamp;
  for (const hookId of deletions) ctx.rows.change('hook', { hook_id: hookId, owner_id: ownerId, deleted: true }, ts);
  for (const details of creations) {
    const spec = details.evm_hook?.spec;
    if (!spec?.contract_id) continue;
    const hookId = details.hook_id ?? 0n;
    // A creation starts the hook over: its key, contract and creation time replace whatever a deleted one had.
    ctx.rows.change(
      'hook',
      {
        admin_key: details.admin_key ?? null,
        contract_id: nullable(contractIdOrAddress(spec.contract_id)),
        created_timestamp: ts,
        deleted: false,
        extension_point: 'ACCOUNT_ALLOWANCE_HOOK',
        hook_id: hookId,
        owner_id: ownerId,
        type: 'EVM',
      },
      ts,
      true,
      ['admin_key', 'contract_id', 'created_timestamp'],
    );
    hookStorageUpdates(ctx, hookId, ownerId, details.evm_hook?.storage_updates ?? []);
  }
}

interface PbHookCall {
  hook_id?: bigint;
}

interface PbHookedAmount {
  accountID?: PbEntityId;
  pre_tx_allowance_hook?: PbHookCall;
  pre_post_tx_allowance_hook?: PbHookCall;
}

interface PbHookedNftTransfer {
  senderAccountID?: PbEntityId;
  receiverAccountID?: PbEntityId;
  pre_tx_sender_allowance_hook?: PbHookCall;
  pre_post_tx_sender_allowance_hook?: PbHookCall;
  pre_tx_receiver_allowance_hook?: PbHookCall;
  pre_post_tx_receiver_allowance_hook?: PbHookCall;
}

interface PbHookedTransfer {
  transfers?: { accountAmounts?: PbHookedAmount[] };
  tokenTransfers?: { transfers?: PbHookedAmount[]; nftTransfers?: PbHookedNftTransfer[] }[];
}

export interface HookContext {
  readonly hookId: bigint;
  readonly ownerId: bigint;
}

/**
 * The hooks a CryptoTransfer's body calls, in the order they execute (HookExecutionCollector): the pre-transaction
 * hooks, then the pre and then the post parts of the pre/post hooks, over hbar transfers, then each token's transfers
 * and NFT transfers (sender before receiver).
 */
export function hookExecutionQueue(body: PbHookedTransfer): HookContext[] {
  const allow: HookContext[] = [];
  const prePost: HookContext[] = [];
  const add = (owner: PbEntityId | undefined, pre?: PbHookCall, both?: PbHookCall) => {
    const call = pre ?? both;
    if (call?.hook_id === undefined) return;
    (pre ? allow : prePost).push({ hookId: call.hook_id, ownerId: accountId(owner) });
  };
  const amounts = (list: readonly PbHookedAmount[]) => {
    for (const aa of list) add(aa.accountID, aa.pre_tx_allowance_hook, aa.pre_post_tx_allowance_hook);
  };
  amounts(body.transfers?.accountAmounts ?? []);
  for (const list of body.tokenTransfers ?? []) {
    amounts(list.transfers ?? []);
    for (const nft of list.nftTransfers ?? []) {
      add(nft.senderAccountID, nft.pre_tx_sender_allowance_hook, nft.pre_post_tx_sender_allowance_hook);
      add(nft.receiverAccountID, nft.pre_tx_receiver_allowance_hook, nft.pre_post_tx_receiver_allowance_hook);
    }
  }
  return [...allow, ...prePost, ...prePost];
}

/** A ContractCall child record to the hook contract: a hook execution, whose storage changes are the hook's. */
export function isHookExecution(ctx: ItemContext): boolean {
  const { item } = ctx;
  const call = item.body.contractCall as { contractID?: PbEntityId } | undefined;
  return (
    call !== undefined &&
    item.parentConsensusTimestamp !== undefined &&
    idParts(contractIdOrAddress(call.contractID)).num === HOOK_CONTRACT_NUM
  );
}

/** The hook calls still to execute of each CryptoTransfer of the file (RecordItem.hookExecutionQueue). */
const queues = new WeakMap<RecordItem, HookContext[]>();

/** A CryptoTransfer, successful or not, queues the hooks its body calls. */
export function queueHookCalls(ctx: ItemContext): void {
  queues.set(ctx.item, hookExecutionQueue(ctx.item.body.cryptoTransfer as PbHookedTransfer));
}

/** HookStore: the storage updates of the hook of the transaction's owner (HookStoreTransactionHandler). */
export function hookStore(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = ctx.item.body.hook_store as { hook_id?: { hook_id?: bigint }; storage_updates?: PbStorageUpdate[] };
  const owner = (ctx.transaction.entity_id as bigint | null) ?? 0n;
  hookStorageUpdates(ctx, body?.hook_id?.hook_id ?? 0n, owner, body?.storage_updates ?? []);
}

/**
 * A hook execution's storage changes of the hook contract: each state change takes the next hook call of the item or
 * of its parent (RecordItem.nextHookContext); without one, or without an owner, it is dropped.
 */
export function hookExecutionStorage(ctx: ItemContext): void {
  const changes = ctx.sidecars?.get(ctx.item.consensusTimestamp)?.hookStateChanges ?? [];
  for (const storageChanges of changes) {
    const queue = queues.get(ctx.item) ?? (ctx.parent ? queues.get(ctx.parent) : undefined);
    const hook = queue?.shift();
    if (!hook || hook.ownerId === 0n) continue;
    for (const change of storageChanges) {
      const written = change.value_written ? (change.value_written.value ?? new Uint8Array()) : undefined;
      hookStorageChange(
        ctx,
        hook.hookId,
        hook.ownerId,
        change.slot ?? new Uint8Array(),
        change.value_read ?? new Uint8Array(),
        written,
      );
    }
  }
}
