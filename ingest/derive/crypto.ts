/** Accounts and allowances: CryptoCreate / Update / Delete, CryptoApproveAllowance / DeleteAllowance. */
import { aliasEvmAddress, publicKeyHex } from '../decode/key.ts';
import type { PbEntityId } from '../decode/types.ts';
import {
  accountId,
  durationSeconds,
  entityRow,
  type ItemContext,
  nanos,
  nullable,
  serviceBody,
  tokenId,
} from './context.ts';
import { hookChanges, type PbHookCreationDetails } from './hooks.ts';
import { createStaking, type StakingFields, updateStaking } from './staking.ts';
import { approvalForAllLog, approvalLog, deleteAllowanceLogs, nftApprovalLog } from './synthetic-logs.ts';

interface CryptoCreateBody extends StakingFields {
  hook_creation_details?: PbHookCreationDetails[];
  hook_ids_to_delete?: bigint[];
  proxyAccountID?: PbEntityId;
  key?: Uint8Array;
  initialBalance?: bigint;
  receiverSigRequired?: boolean;
  autoRenewPeriod?: { seconds?: bigint };
  memo?: string;
  max_automatic_token_associations?: number;
  alias?: Uint8Array;
  delegation_address?: Uint8Array;
}

/** HIP-1340: a 20-byte EVM address; the zero address means none (an update clears with it, a create ignores it). */
const EVM_ADDRESS_BYTES = 20;
const isDelegate = (address: Uint8Array | undefined): address is Uint8Array =>
  address?.length === EVM_ADDRESS_BYTES && address.some((byte) => byte !== 0);

export function cryptoCreate(ctx: ItemContext): void {
  const body = serviceBody<CryptoCreateBody>(ctx);
  const { item } = ctx;
  ctx.transaction.initial_balance = body.initialBalance ?? 0n;
  if (!item.successful) return;
  const id = accountId(item.record.receipt?.accountID);
  if (id === 0n) return;
  const ts = item.consensusTimestamp;
  // The record's alias wins over the body's; a key alias (longer than an EVM address) is the key when none is given.
  const alias = item.record.alias && item.record.alias.length > 0 ? item.record.alias : body.alias;
  const hasAlias = alias !== undefined && alias.length > 0;
  const key = body.key && body.key.length > 0 ? body.key : hasAlias && alias.length > 20 ? alias : undefined;
  const recorded = item.record.evm_address;
  const evmAddress = recorded && recorded.length > 0 ? recorded : hasAlias ? aliasEvmAddress(alias) : undefined;
  ctx.rows.change(
    'entity',
    {
      ...entityRow(id),
      alias: hasAlias ? alias : null,
      auto_renew_period: durationSeconds(body.autoRenewPeriod) ?? null,
      created_timestamp: ts,
      delegation_address: isDelegate(body.delegation_address) ? body.delegation_address : null,
      deleted: false,
      ethereum_nonce: 0n,
      evm_address: evmAddress ?? null,
      key: key ?? null,
      max_automatic_token_associations: body.max_automatic_token_associations ?? 0,
      memo: body.memo ?? '',
      public_key: publicKeyHex(key),
      proxy_account_id: nullable(accountId(body.proxyAccountID)),
      receiver_sig_required: body.receiverSigRequired ?? false,
      type: 'ACCOUNT',
      ...createStaking(body, ts, ctx.hapiMinor),
    },
    ts,
  );
  // Balance 0 from creation, whether or not an initial balance arrives in the transfer list.
  ctx.rows.addEntityBalance(id, 0n, ts);
  hookChanges(ctx, id, body.hook_creation_details ?? [], []);
}

interface CryptoUpdateBody extends StakingFields {
  hook_creation_details?: PbHookCreationDetails[];
  hook_ids_to_delete?: bigint[];
  proxyAccountID?: PbEntityId;
  accountIDToUpdate?: PbEntityId;
  key?: Uint8Array;
  autoRenewPeriod?: { seconds?: bigint };
  expirationTime?: unknown;
  receiverSigRequired?: boolean;
  receiverSigRequiredWrapper?: { value?: boolean };
  memo?: { value?: string };
  max_automatic_token_associations?: { value?: number };
  delegation_address?: Uint8Array;
}

export function cryptoUpdate(ctx: ItemContext): void {
  const body = serviceBody<CryptoUpdateBody>(ctx);
  const id = accountId(body.accountIDToUpdate);
  if (!ctx.item.successful || id === 0n) return;
  const ts = ctx.item.consensusTimestamp;
  // Any successful update marks the entity not deleted (the importer's entity operation UPDATE).
  const row: Record<string, unknown> = {
    ...entityRow(id),
    deleted: false,
    type: 'ACCOUNT',
    ...updateStaking(body, ts, ctx.hapiMinor),
  };
  if (body.proxyAccountID) row.proxy_account_id = nullable(accountId(body.proxyAccountID));
  if (body.autoRenewPeriod) row.auto_renew_period = durationSeconds(body.autoRenewPeriod) ?? null;
  if (body.expirationTime) row.expiration_timestamp = nanos(body.expirationTime);
  if (body.key) {
    row.key = body.key;
    row.public_key = publicKeyHex(body.key);
  }
  if (body.memo) row.memo = body.memo.value ?? '';
  if (body.max_automatic_token_associations)
    row.max_automatic_token_associations = body.max_automatic_token_associations.value ?? 0;
  if (body.receiverSigRequiredWrapper) row.receiver_sig_required = body.receiverSigRequiredWrapper.value ?? false;
  else if (body.receiverSigRequired !== undefined) row.receiver_sig_required = body.receiverSigRequired;
  // Unset (empty) leaves the delegation as it is; the zero address clears it (the API shows it as `0x`, as for none).
  if (body.delegation_address?.length === EVM_ADDRESS_BYTES) row.delegation_address = body.delegation_address;
  ctx.rows.change('entity', row, ts);
  hookChanges(ctx, id, body.hook_creation_details ?? [], body.hook_ids_to_delete ?? []);
}

export function cryptoDelete(ctx: ItemContext): void {
  const body = serviceBody<{ deleteAccountID?: PbEntityId; transferAccountID?: PbEntityId }>(ctx);
  const id = accountId(body.deleteAccountID);
  if (!ctx.item.successful || id === 0n) return;
  ctx.rows.change(
    'entity',
    { ...entityRow(id), deleted: true, obtainer_id: nullable(accountId(body.transferAccountID)), type: 'ACCOUNT' },
    ctx.item.consensusTimestamp,
  );
}

interface AllowanceBody {
  cryptoAllowances: { owner?: PbEntityId; spender?: PbEntityId; amount?: bigint }[];
  nftAllowances: {
    tokenId?: PbEntityId;
    owner?: PbEntityId;
    spender?: PbEntityId;
    serial_numbers: bigint[];
    approved_for_all?: { value?: boolean };
    delegating_spender?: PbEntityId;
  }[];
  tokenAllowances: { tokenId?: PbEntityId; owner?: PbEntityId; spender?: PbEntityId; amount?: bigint }[];
}

/**
 * The allowances of one approval, the last of the body's entries winning for a key (owner, spender and token; an
 * NFT's serial), as the importer reads the lists from their end and skips keys it has seen.
 */
export function approveAllowance(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<AllowanceBody>(ctx);
  const ts = ctx.item.consensusTimestamp;
  const payer = ctx.item.payerAccountId;
  // An absent owner means the payer grants its own allowance.
  const owner = (id: PbEntityId | undefined) => accountId(id) || payer;
  const seen = new Set<string>();
  const first = (key: string): boolean => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  for (const a of body.cryptoAllowances.toReversed()) {
    const row = { owner: owner(a.owner), spender: accountId(a.spender) };
    if (!first(`c/${row.owner}/${row.spender}`)) continue;
    const amount = a.amount ?? 0n;
    ctx.rows.change('crypto_allowance', { ...row, amount, amount_granted: amount, payer_account_id: payer }, ts);
  }
  for (const a of body.nftAllowances.toReversed()) {
    const token = tokenId(a.tokenId);
    const spender = accountId(a.spender);
    const ownerId = owner(a.owner);
    if (a.approved_for_all && first(`n/${ownerId}/${spender}/${token}`)) {
      const approved = a.approved_for_all.value ?? false;
      ctx.rows.change(
        'nft_allowance',
        { owner: ownerId, spender, token_id: token, approved_for_all: approved, payer_account_id: payer },
        ts,
      );
      approvalForAllLog(ctx, token, ownerId, spender, approved);
    }
    const delegating = accountId(a.delegating_spender);
    for (const serial of a.serial_numbers) {
      if (!first(`s/${token}/${serial}`)) continue;
      ctx.rows.change(
        'nft',
        {
          token_id: token,
          serial_number: serial,
          account_id: ownerId,
          // A spender 0.0.0 is the importer's RETAIN_SPENDER: the NFT keeps the spender it has.
          ...(spender !== 0n ? { spender } : {}),
          delegating_spender: delegating || null,
        },
        ts,
        true,
        ['delegating_spender'],
      );
      if (!a.approved_for_all) nftApprovalLog(ctx, token, ownerId, spender, serial);
    }
  }
  for (const a of body.tokenAllowances.toReversed()) {
    const row = { owner: owner(a.owner), spender: accountId(a.spender), token_id: tokenId(a.tokenId) };
    if (!first(`t/${row.owner}/${row.spender}/${row.token_id}`)) continue;
    const amount = a.amount ?? 0n;
    ctx.rows.change('token_allowance', { ...row, amount, amount_granted: amount, payer_account_id: payer }, ts);
    approvalLog(ctx, row.token_id, row.owner, row.spender, amount);
  }
}

export function deleteAllowance(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  deleteAllowanceLogs(ctx);
  const body = serviceBody<{ nftAllowances: { token_id?: PbEntityId; serial_numbers: bigint[] }[] }>(ctx);
  for (const a of body.nftAllowances) {
    for (const serial of a.serial_numbers) {
      ctx.rows.change(
        'nft',
        { token_id: tokenId(a.token_id), serial_number: serial, spender: null, delegating_spender: null },
        ctx.item.consensusTimestamp,
        true,
        ['spender', 'delegating_spender'],
      );
    }
  }
}
