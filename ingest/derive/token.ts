/**
 * Tokens: create, update, delete, pause, fee schedules, supply changes (mint / burn / wipe with their NFTs),
 * account relationships (associate, dissociate, freeze, KYC) and NFT metadata updates.
 */
import { publicKeyHex } from '../decode/key.ts';
import type { PbEntityId } from '../decode/types.ts';
import {
  accountId,
  durationSeconds,
  entityRow,
  type ItemContext,
  nanos,
  renewalUpdate,
  serviceBody,
  tokenId,
} from './context.ts';
import { type PbCustomFee, tokenFeeRow } from './custom-fees.ts';

/** Services 0.48 handled a token's metadata and metadata key as absent; the importer stores them from 0.49. */
const TOKEN_METADATA_MINOR = 49;

/** The importer's TokenFreezeStatusEnum and TokenKycStatusEnum ordinals. */
const NOT_APPLICABLE = 0;
const FROZEN = 1;
const UNFROZEN = 2;
const GRANTED = 1;
const REVOKED = 2;

interface TokenCreateBody {
  name?: string;
  symbol?: string;
  decimals?: number;
  initialSupply?: bigint;
  treasury?: PbEntityId;
  adminKey?: Uint8Array;
  kycKey?: Uint8Array;
  freezeKey?: Uint8Array;
  wipeKey?: Uint8Array;
  supplyKey?: Uint8Array;
  freezeDefault?: boolean;
  expiry?: unknown;
  autoRenewAccount?: PbEntityId;
  autoRenewPeriod?: { seconds?: bigint };
  memo?: string;
  tokenType?: number;
  supplyType?: number;
  maxSupply?: bigint;
  fee_schedule_key?: Uint8Array;
  custom_fees: PbCustomFee[];
  pause_key?: Uint8Array;
  metadata?: Uint8Array;
  metadata_key?: Uint8Array;
}

export function tokenCreate(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<TokenCreateBody>(ctx);
  const id = tokenId(item.record.receipt?.tokenID);
  if (id === 0n) return;
  const ts = item.consensusTimestamp;
  const finite = body.supplyType === 1;
  ctx.rows.change(
    'entity',
    {
      ...entityRow(id),
      auto_renew_account_id: accountId(body.autoRenewAccount) || null,
      auto_renew_period: durationSeconds(body.autoRenewPeriod) ?? null,
      created_timestamp: ts,
      deleted: false,
      expiration_timestamp: body.expiry ? nanos(body.expiry) : null,
      key: body.adminKey ?? null,
      memo: body.memo ?? '',
      public_key: publicKeyHex(body.adminKey),
      type: 'TOKEN',
    },
    ts,
  );
  const withMetadata = ctx.hapiMinor >= TOKEN_METADATA_MINOR;
  ctx.rows.change(
    'token',
    {
      token_id: id,
      created_timestamp: ts,
      decimals: BigInt(body.decimals ?? 0),
      fee_schedule_key: body.fee_schedule_key ?? null,
      freeze_default: body.freezeDefault ?? false,
      freeze_key: body.freezeKey ?? null,
      freeze_status: body.freezeKey ? (body.freezeDefault ? FROZEN : UNFROZEN) : NOT_APPLICABLE,
      initial_supply: body.initialSupply ?? 0n,
      kyc_key: body.kycKey ?? null,
      kyc_status: body.kycKey ? REVOKED : NOT_APPLICABLE,
      // The body's, as the importer stores it: 0 for an infinite supply (the column's default is never used).
      max_supply: body.maxSupply ?? 0n,
      metadata: withMetadata ? (body.metadata ?? new Uint8Array()) : null,
      metadata_key: withMetadata ? (body.metadata_key ?? null) : null,
      name: body.name ?? '',
      pause_key: body.pause_key ?? null,
      pause_status: body.pause_key ? 'UNPAUSED' : 'NOT_APPLICABLE',
      supply_key: body.supplyKey ?? null,
      supply_type: finite ? 'FINITE' : 'INFINITE',
      symbol: body.symbol ?? '',
      total_supply: body.initialSupply ?? 0n,
      treasury_account_id: accountId(body.treasury),
      type: body.tokenType === 1 ? 'NON_FUNGIBLE_UNIQUE' : 'FUNGIBLE_COMMON',
      wipe_key: body.wipeKey ?? null,
    },
    ts,
  );
  const collectors = tokenFeeRow(ctx, id, body.custom_fees);
  // The network associates the treasury and the collectors of fees charged in the token; records from services
  // 0.18 list those associations, and then the list is the whole set.
  const listed = item.record.automatic_token_associations.map((a) => accountId(a.account_id));
  const associated = new Set<bigint>(listed.length > 0 ? listed : [...collectors, accountId(body.treasury)]);
  associated.delete(0n);
  for (const account of associated) {
    ctx.rows.change(
      'token_account',
      {
        account_id: account,
        token_id: id,
        associated: true,
        automatic_association: false,
        balance: 0n,
        balance_timestamp: ts,
        created_timestamp: ts,
        freeze_status: body.freezeKey ? UNFROZEN : NOT_APPLICABLE,
        kyc_status: body.kycKey ? GRANTED : NOT_APPLICABLE,
      },
      ts,
    );
  }
}

interface TokenUpdateBody {
  token?: PbEntityId;
  symbol?: string;
  name?: string;
  treasury?: PbEntityId;
  adminKey?: Uint8Array;
  kycKey?: Uint8Array;
  freezeKey?: Uint8Array;
  wipeKey?: Uint8Array;
  supplyKey?: Uint8Array;
  autoRenewAccount?: PbEntityId;
  autoRenewPeriod?: { seconds?: bigint };
  expiry?: unknown;
  memo?: { value?: string };
  fee_schedule_key?: Uint8Array;
  pause_key?: Uint8Array;
  metadata?: { value?: Uint8Array };
  metadata_key?: Uint8Array;
}

export function tokenUpdate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<TokenUpdateBody>(ctx);
  const id = tokenId(body.token);
  if (id === 0n) return;
  const ts = ctx.item.consensusTimestamp;
  // Any successful update marks the entity not deleted (the importer's entity operation UPDATE).
  const entity: Record<string, unknown> = {
    ...entityRow(id),
    deleted: false,
    type: 'TOKEN',
    ...renewalUpdate({ ...body, expiration: body.expiry }),
  };
  if (body.adminKey) {
    entity.key = body.adminKey;
    entity.public_key = publicKeyHex(body.adminKey);
  }
  if (body.memo) entity.memo = body.memo.value ?? '';
  ctx.rows.change('entity', entity, ts);
  const token: Record<string, unknown> = { token_id: id };
  if (body.symbol) token.symbol = body.symbol;
  if (body.name) token.name = body.name;
  if (body.treasury) token.treasury_account_id = accountId(body.treasury);
  if (body.kycKey) token.kyc_key = body.kycKey;
  if (body.freezeKey) token.freeze_key = body.freezeKey;
  if (body.wipeKey) token.wipe_key = body.wipeKey;
  if (body.supplyKey) token.supply_key = body.supplyKey;
  if (body.fee_schedule_key) token.fee_schedule_key = body.fee_schedule_key;
  if (body.pause_key) token.pause_key = body.pause_key;
  if (ctx.hapiMinor >= TOKEN_METADATA_MINOR) {
    if (body.metadata) token.metadata = body.metadata.value ?? new Uint8Array();
    if (body.metadata_key) token.metadata_key = body.metadata_key;
  }
  ctx.rows.change('token', token, ts);
}

export function tokenDelete(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const id = tokenId(serviceBody<{ token?: PbEntityId }>(ctx).token);
  if (id !== 0n)
    ctx.rows.change('entity', { ...entityRow(id), deleted: true, type: 'TOKEN' }, ctx.item.consensusTimestamp);
}

export function tokenPause(ctx: ItemContext, paused: boolean): void {
  if (!ctx.item.successful) return;
  const id = tokenId(serviceBody<{ token?: PbEntityId }>(ctx).token);
  if (id !== 0n) {
    ctx.rows.change(
      'token',
      { token_id: id, pause_status: paused ? 'PAUSED' : 'UNPAUSED' },
      ctx.item.consensusTimestamp,
    );
  }
}

export function tokenFeeScheduleUpdate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<{ token_id?: PbEntityId; custom_fees: PbCustomFee[] }>(ctx);
  const id = tokenId(body.token_id);
  if (id !== 0n) tokenFeeRow(ctx, id, body.custom_fees);
}

interface SupplyBody {
  token?: PbEntityId;
  account?: PbEntityId;
  metadata?: Uint8Array[];
  serialNumbers?: bigint[];
}

/** Mint, burn and wipe: the new total supply, and the NFTs created or removed. */
export function tokenSupply(ctx: ItemContext, kind: 'mint' | 'burn' | 'wipe'): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<SupplyBody>(ctx);
  const id = tokenId(body.token);
  if (id === 0n) return;
  const ts = item.consensusTimestamp;
  const receipt = item.record.receipt;
  // proto3 leaves a zero supply off the wire: a burn or wipe to nothing writes 0, as the importer reads it.
  ctx.rows.change('token', { token_id: id, total_supply: receipt?.newTotalSupply ?? 0n }, ts, false);
  if (kind === 'mint') {
    const metadata = body.metadata ?? [];
    // A serial without its metadata gets no row (the importer stops at the first one).
    receipt?.serialNumbers.slice(0, metadata.length).forEach((serial, i) => {
      ctx.rows.change(
        'nft',
        {
          token_id: id,
          serial_number: serial,
          created_timestamp: ts,
          deleted: false,
          metadata: metadata[i],
        },
        ts,
      );
    });
    return;
  }
  for (const serial of body.serialNumbers ?? []) {
    ctx.rows.change(
      'nft',
      { token_id: id, serial_number: serial, account_id: null, deleted: true, spender: null, delegating_spender: null },
      ts,
      true,
      ['account_id', 'spender', 'delegating_spender'],
    );
  }
}

export function tokenUpdateNfts(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<{ token?: PbEntityId; serial_numbers: bigint[]; metadata?: { value?: Uint8Array } }>(ctx);
  const id = tokenId(body.token);
  if (id === 0n || !body.metadata) return;
  for (const serial of body.serial_numbers) {
    ctx.rows.change(
      'nft',
      { token_id: id, serial_number: serial, metadata: body.metadata.value ?? new Uint8Array() },
      ctx.item.consensusTimestamp,
    );
  }
}

/** Associate / dissociate: the account's relationship with each listed token. */
export function tokenAssociation(ctx: ItemContext, associated: boolean): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<{ account?: PbEntityId; tokens: PbEntityId[] }>(ctx);
  const account = accountId(body.account);
  const ts = ctx.item.consensusTimestamp;
  for (const token of body.tokens) {
    const row: Record<string, unknown> = { account_id: account, token_id: tokenId(token), associated };
    if (associated) {
      Object.assign(row, { automatic_association: false, balance: 0n, balance_timestamp: ts, created_timestamp: ts });
    }
    ctx.rows.change('token_account', row, ts);
  }
}

/** Freeze (1) / unfreeze (2) and KYC grant (1) / revoke (2). */
export function tokenAccountStatus(ctx: ItemContext, column: 'freeze_status' | 'kyc_status', value: number): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<{ token?: PbEntityId; account?: PbEntityId }>(ctx);
  ctx.rows.change(
    'token_account',
    { account_id: accountId(body.account), token_id: tokenId(body.token), associated: true, [column]: value },
    ctx.item.consensusTimestamp,
  );
}
