/**
 * TokenUpdate submitted to a node, as the consensus node's TokenUpdateHandler runs it: the signatures HIP-540 asks
 * for (the admin key for the token's properties, the admin key or the role key, with the new key too under full
 * validation, for a role key), then the change. A new treasury takes the old one's balance, or its NFTs (recorded as
 * the node does: one NFT transfer of serial -1 from the old treasury to the new), and is associated automatically
 * when it needs to be.
 */
import { accountPb, tokenPb } from '../../ledger/ids.ts';
import type { Account, Ledger, LedgerKey, Token, TokenSettings } from '../../ledger/ledger.ts';
import { TokenTransfers } from '../../network/transfers.ts';
import { nsOf } from '../entity-ids.ts';
import { bigOf, checkMemo, ensure, type Pb, type TxHandler, textOf, UTF8 } from '../handling.ts';
import { liveAccount, liveToken } from './lookups.ts';
import { allOf, isKeyRemoval, oneOf, type RoleKey, TOKEN_KEYS, validKey } from './token-keys.ts';

const MAX_NAME_BYTES = 100;
const MAX_METADATA_BYTES = 100;
const MIN_AUTO_RENEW = 2_592_000n;
const MAX_AUTO_RENEW = 8_000_001n;
const NO_VALIDATION = 1;

const present = (value: unknown) => value !== undefined && value !== null;
/** A wrapped value's contents when the field is present (`{}` is a present, empty value). */
const wrappedBytes = (value: unknown) => ((value as Pb).value as Uint8Array | undefined) ?? new Uint8Array();

export const tokenUpdate: TxHandler = {
  price: () => ({ kind: 'tokenUpdate' }),
  pure: (data) => {
    ensure(data.token, 'INVALID_TOKEN_ID');
    // Every key must be structurally valid whatever the verification mode; the empty list removes one.
    for (const { field, invalid } of TOKEN_KEYS)
      if (present(data[field]) && !isKeyRemoval(data[field])) validKey(data[field], invalid);
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const token = liveToken(ledger, data.token);
    ensure(!token.paused, 'TOKEN_IS_PAUSED');
    const requiredKeys = requiredSigners(ledger, token, data);
    return {
      requiredKeys,
      execute: () => {
        const settings = token.settings ?? {};
        const changes = validated(ledger, token, settings, data);
        const tokens = new TokenTransfers();
        const associations: Pb[] = [];
        if (changes.treasury) moveTreasury(ledger, token, changes.treasury, tokens, associations);
        for (const { field, name } of TOKEN_KEYS) {
          if (!present(data[field])) continue;
          if (isKeyRemoval(data[field])) delete settings[name];
          else settings[name] = validKey(data[field], 'BAD_ENCODING');
        }
        if (textOf(data.symbol)) token.symbol = textOf(data.symbol);
        if (textOf(data.name)) token.name = textOf(data.name);
        if (present(data.memo)) settings.memo = textOf((data.memo as Pb).value);
        if (present(data.metadata)) settings.metadata = new Uint8Array(wrappedBytes(data.metadata));
        if (changes.expirationNs !== undefined) settings.expirationNs = changes.expirationNs;
        if (changes.autoRenewSeconds !== undefined) settings.autoRenewSeconds = changes.autoRenewSeconds;
        if (changes.autoRenewAccount) settings.autoRenewAccount = changes.autoRenewAccount.num;
        token.settings = settings;
        return {
          tokens,
          ...(associations.length > 0 ? { record: { automatic_token_associations: associations } } : {}),
        };
      },
    };
  },
};

/** A key the token holds: a removed one (or one it never had) counts as absent. */
const keyOf = (token: Token, name: RoleKey): LedgerKey | undefined => token.settings?.[name];

function requireAdmin(token: Token): LedgerKey {
  const admin = keyOf(token, 'adminKey');
  ensure(admin, 'TOKEN_IS_IMMUTABLE');
  return admin;
}

/** The admin key, or the role key (with its replacement when given); a token with neither is immutable. */
function adminOrRole(token: Token, role: (typeof TOKEN_KEYS)[number], replacement?: LedgerKey): LedgerKey[] {
  const admin = keyOf(token, 'adminKey');
  const current = keyOf(token, role.name);
  ensure(current, admin ? role.missing : 'TOKEN_IS_IMMUTABLE');
  const roleSide = replacement ? allOf(current, replacement) : current;
  if (admin) return [oneOf(roleSide, admin)];
  return replacement ? [current, replacement] : [current];
}

/** The keys the node requires (TokenUpdateHandler.preHandle), in its order; its failures come before any other. */
function requiredSigners(ledger: Ledger, token: Token, data: Pb): LedgerKey[] {
  const keys: LedgerKey[] = [];
  const metadataRole = TOKEN_KEYS.find((k) => k.name === 'metadataKey');
  if (present(data.metadata) && metadataRole) {
    keys.push(...(keyOf(token, 'metadataKey') ? adminOrRole(token, metadataRole) : [requireAdmin(token)]));
  }
  if (present(data.treasury)) {
    keys.push(requireAdmin(token));
    const treasury = liveAccount(ledger, data.treasury, 'INVALID_ACCOUNT_ID');
    if (treasury.key) keys.push(treasury.key);
  }
  if (present(data.autoRenewAccount)) {
    keys.push(requireAdmin(token));
    const account = liveAccount(ledger, data.autoRenewAccount, 'INVALID_AUTORENEW_ACCOUNT');
    if (account.key) keys.push(account.key);
  }
  if (present(data.adminKey)) {
    keys.push(requireAdmin(token));
    if (!isKeyRemoval(data.adminKey)) keys.push(validKey(data.adminKey, 'INVALID_ADMIN_KEY'));
  }
  if (TOKEN_KEYS.some(({ field }) => isKeyRemoval(data[field]))) keys.push(requireAdmin(token));
  const adminOnly = textOf(data.symbol) || textOf(data.name) || present(data.autoRenewPeriod) || present(data.memo);
  if (adminOnly) keys.push(requireAdmin(token));
  for (const role of TOKEN_KEYS.slice(1)) {
    const pb = data[role.field];
    if (!present(pb) || isKeyRemoval(pb)) continue;
    const noValidation = Number(data.key_verification_mode ?? 0) === NO_VALIDATION;
    keys.push(...adminOrRole(token, role, noValidation ? undefined : validKey(pb, role.invalid)));
  }
  return keys;
}

interface Changes {
  readonly treasury?: Account;
  readonly expirationNs?: bigint;
  readonly autoRenewSeconds?: bigint;
  readonly autoRenewAccount?: Account;
}

/** The checks that need the token's state (TokenUpdateValidator), before anything changes. */
function validated(ledger: Ledger, token: Token, settings: TokenSettings, data: Pb): Changes {
  if (present(data.memo)) checkMemo(textOf((data.memo as Pb).value));
  ensure(UTF8.encode(textOf(data.symbol)).length <= MAX_NAME_BYTES, 'TOKEN_SYMBOL_TOO_LONG');
  ensure(UTF8.encode(textOf(data.name)).length <= MAX_NAME_BYTES, 'TOKEN_NAME_TOO_LONG');
  if (present(data.metadata)) ensure(wrappedBytes(data.metadata).length <= MAX_METADATA_BYTES, 'METADATA_TOO_LONG');
  for (const { field, name, missing } of TOKEN_KEYS) if (present(data[field])) ensure(settings[name], missing);
  const expirationNs = present(data.expiry) ? nsOf(data.expiry) : undefined;
  if (expirationNs !== undefined) ensure(expirationNs >= (settings.expirationNs ?? 0n), 'INVALID_EXPIRATION_TIME');
  const autoRenewSeconds = present(data.autoRenewPeriod) ? bigOf((data.autoRenewPeriod as Pb).seconds) : undefined;
  if (autoRenewSeconds !== undefined)
    ensure(autoRenewSeconds >= MIN_AUTO_RENEW && autoRenewSeconds <= MAX_AUTO_RENEW, 'INVALID_RENEWAL_PERIOD');
  const autoRenewAccount = present(data.autoRenewAccount)
    ? liveAccount(ledger, data.autoRenewAccount, 'INVALID_AUTORENEW_ACCOUNT')
    : undefined;
  const treasury = present(data.treasury)
    ? liveAccount(ledger, data.treasury, 'INVALID_TREASURY_ACCOUNT_FOR_TOKEN')
    : undefined;
  if (treasury) checkTreasury(ledger, token, treasury);
  return {
    ...(treasury ? { treasury } : {}),
    ...(expirationNs !== undefined ? { expirationNs } : {}),
    ...(autoRenewSeconds !== undefined ? { autoRenewSeconds } : {}),
    ...(autoRenewAccount ? { autoRenewAccount } : {}),
  };
}

function checkTreasury(ledger: Ledger, token: Token, treasury: Account): void {
  if (!ledger.isAssociated(treasury.num, token.num))
    ensure(ledger.freeAutoAssociations(treasury) > 0, 'NO_REMAINING_AUTOMATIC_ASSOCIATIONS');
  if (treasury.num === token.treasury || ledger.tokenBalance(token.treasury, token.num) === 0n) return;
  ensure(!token.frozen?.has(token.treasury), 'ACCOUNT_FROZEN_FOR_TOKEN');
  if (token.settings?.kycKey) ensure(token.kycGranted?.has(token.treasury), 'TOKEN_HAS_NO_KYC_KEY');
  if (token.type === 'NON_FUNGIBLE_UNIQUE')
    ensure(ledger.tokenBalance(treasury.num, token.num) === 0n, 'TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES');
}

/**
 * The new treasury: associated (automatically, when it was not), unfrozen and granted KYC, holding what the old one
 * held. NFTs that move end their spender approvals, as a mirror reading the record ends them.
 */
function moveTreasury(ledger: Ledger, token: Token, treasury: Account, tokens: TokenTransfers, associations: Pb[]) {
  if (!ledger.isAssociated(treasury.num, token.num)) {
    ledger.autoAssociate(treasury.num, token.num);
    associations.push({ token_id: tokenPb(token.num), account_id: accountPb(treasury.num) });
  }
  const old = token.treasury;
  if (treasury.num === old) return;
  token.frozen?.delete(treasury.num);
  if (token.settings?.kycKey) token.kycGranted?.add(treasury.num);
  const held = ledger.tokenBalance(old, token.num);
  token.treasury = treasury.num;
  if (held === 0n) return;
  if (token.type === 'FUNGIBLE_COMMON') {
    ledger.addTokenBalance(old, token.num, -held);
    ledger.addTokenBalance(treasury.num, token.num, held);
    tokens.add(token.num, old, -held).add(token.num, treasury.num, held);
    return;
  }
  for (const serial of ledger.nftsOwnedBy(old, token.num, Number(held)))
    ledger.moveNft(token.num, serial, old, treasury.num);
  tokens.nft(token.num, { serial: -1n, from: old, to: treasury.num });
}
