import { accountPb, tokenPb } from '../../ledger/ids.ts';
import type { LedgerKey, Token, TokenSettings } from '../../ledger/ledger.ts';
import { tokenCreated } from '../../mix/tokens.ts';
import { nsOf } from '../entity-ids.ts';
import { bigOf, checkMemo, DEFAULT_AUTO_RENEW_SECONDS, ensure, type Pb, type TxHandler, textOf } from '../handling.ts';
import { checkFeeListShape, denominatedIn, feeList, readTokenFees } from './custom-fee-schedule.ts';
import { liveAccount, liveParty, liveToken } from './lookups.ts';
import { TOKEN_KEYS, validKey } from './token-keys.ts';

const MAX_NAME_BYTES = 100;

export const tokenCreate: TxHandler = {
  price: (data) => ({ kind: feeList(data.custom_fees).length > 0 ? 'tokenCreateWithCustomFees' : 'tokenCreate' }),
  pure: (data) => {
    const name = textOf(data.name);
    const symbol = textOf(data.symbol);
    ensure(name.length > 0, 'MISSING_TOKEN_NAME');
    ensure(new TextEncoder().encode(name).length <= MAX_NAME_BYTES, 'TOKEN_NAME_TOO_LONG');
    ensure(symbol.length > 0, 'MISSING_TOKEN_SYMBOL');
    ensure(new TextEncoder().encode(symbol).length <= MAX_NAME_BYTES, 'TOKEN_SYMBOL_TOO_LONG');
    ensure(data.treasury, 'INVALID_TREASURY_ACCOUNT_FOR_TOKEN');
    checkMemo(textOf(data.memo));
    const nft = Number(data.tokenType ?? 0) === 1;
    const initial = bigOf(data.initialSupply);
    ensure(initial >= 0n, 'INVALID_TOKEN_INITIAL_SUPPLY');
    ensure(!nft || initial === 0n, 'INVALID_TOKEN_INITIAL_SUPPLY');
    ensure(!nft || Number(data.decimals ?? 0) === 0, 'INVALID_TOKEN_DECIMALS');
    ensure(Number(data.decimals ?? 0) >= 0, 'INVALID_TOKEN_DECIMALS');
    ensure(!nft || data.supplyKey, 'TOKEN_HAS_NO_SUPPLY_KEY');
    const finite = Number(data.supplyType ?? 0) === 1;
    const max = bigOf(data.maxSupply);
    if (finite) ensure(max > 0n && initial <= max, 'INVALID_TOKEN_MAX_SUPPLY');
    else ensure(max === 0n, 'INVALID_TOKEN_MAX_SUPPLY');
    for (const { field, invalid } of TOKEN_KEYS) if (data[field]) validKey(data[field], invalid);
    if (data.freezeDefault) ensure(data.freezeKey, 'TOKEN_HAS_NO_FREEZE_KEY');
    checkFeeListShape(feeList(data.custom_fees));
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const treasury = liveAccount(ledger, data.treasury, 'INVALID_TREASURY_ACCOUNT_FOR_TOKEN');
    const settings: TokenSettings = { memo: textOf(data.memo) };
    for (const { field, name, invalid } of TOKEN_KEYS) if (data[field]) settings[name] = validKey(data[field], invalid);
    if (Number(data.supplyType ?? 0) === 1) settings.maxSupply = bigOf(data.maxSupply);
    if (data.freezeDefault) settings.freezeDefault = true;
    if (data.metadata instanceof Uint8Array && data.metadata.length > 0)
      settings.metadata = new Uint8Array(data.metadata);
    const autoRenewAccount = data.autoRenewAccount ? liveAccount(ledger, data.autoRenewAccount) : undefined;
    if (autoRenewAccount) settings.autoRenewAccount = autoRenewAccount.num;
    // An expiry given without an auto-renew period leaves the token without one.
    if (data.autoRenewPeriod) settings.autoRenewSeconds = bigOf((data.autoRenewPeriod as Pb).seconds);
    else if (!data.expiry) settings.autoRenewSeconds = DEFAULT_AUTO_RENEW_SECONDS;
    const nft = Number(data.tokenType ?? 0) === 1;
    const fees = readTokenFees(ledger, feeList(data.custom_fees), {
      num: undefined,
      type: nft ? 'NON_FUNGIBLE_UNIQUE' : 'FUNGIBLE_COMMON',
    });
    const requiredKeys = [treasury.key, settings.adminKey, autoRenewAccount?.key, ...fees.collectorKeys].filter(
      (k): k is LedgerKey => k !== undefined,
    );
    return {
      requiredKeys,
      execute: ({ consensusNs }) => {
        settings.expirationNs = data.expiry
          ? nsOf(data.expiry)
          : consensusNs + (settings.autoRenewSeconds ?? DEFAULT_AUTO_RENEW_SECONDS) * 1_000_000_000n;
        const { num, outcome } = tokenCreated(net, {
          type: nft ? 'NON_FUNGIBLE_UNIQUE' : 'FUNGIBLE_COMMON',
          name: textOf(data.name),
          symbol: textOf(data.symbol),
          decimals: Number(data.decimals ?? 0),
          treasury: treasury.num,
          totalSupply: bigOf(data.initialSupply),
          nextSerial: 1n,
          ...(settings.freezeKey ? { frozen: new Set<bigint>() } : {}),
          ...(settings.kycKey ? { kycGranted: new Set<bigint>() } : {}),
          settings,
        });
        // The treasury is never frozen for its own token and holds KYC from the start, as a node grants it.
        ledger.tokens.get(num)?.kycGranted?.add(treasury.num);
        if (fees.fees.length > 0) settings.customFees = denominatedIn(fees.fees, num);
        // Collectors of fractional fees and of fixed fees in the new token are associated with it, after the treasury.
        const collectors = fees.toAssociate.filter((collector) => !ledger.isAssociated(collector, num));
        for (const collector of collectors) {
          ledger.associate(collector, num);
          if (settings.freezeDefault) ledger.tokens.get(num)?.frozen?.add(collector);
        }
        const associations = [
          ...((outcome.record?.automatic_token_associations as Pb[] | undefined) ?? []),
          ...collectors.map((collector) => ({ token_id: tokenPb(num), account_id: accountPb(collector) })),
        ];
        return { ...outcome, record: { ...outcome.record, automatic_token_associations: associations } };
      },
    };
  },
};

/** The key the token holds for a change; a token without it fails with the node's `TOKEN_HAS_NO_…_KEY`. */
export function tokenKey(token: Token, name: keyof typeof KEY_NAMES): LedgerKey {
  const key = token.settings?.[name];
  ensure(key, KEY_NAMES[name]);
  return key;
}

const KEY_NAMES = {
  adminKey: 'TOKEN_IS_IMMUTABLE',
  supplyKey: 'TOKEN_HAS_NO_SUPPLY_KEY',
  wipeKey: 'TOKEN_HAS_NO_WIPE_KEY',
  freezeKey: 'TOKEN_HAS_NO_FREEZE_KEY',
  kycKey: 'TOKEN_HAS_NO_KYC_KEY',
  pauseKey: 'TOKEN_HAS_NO_PAUSE_KEY',
} as const;

const tokenList = (data: Pb): Pb[] => (Array.isArray(data.tokens) ? (data.tokens as Pb[]) : []);

export const tokenAssociate: TxHandler = {
  price: () => ({ kind: 'tokenAssociate' }),
  pure: (data) => {
    ensure(data.account, 'INVALID_ACCOUNT_ID');
    const ids = tokenList(data).map((t) => String(t.tokenNum));
    ensure(new Set(ids).size === ids.length, 'TOKEN_ID_REPEATED_IN_TOKEN_LIST');
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const account = liveParty(ledger, data.account);
    const tokens = tokenList(data).map((id) => liveToken(ledger, id));
    for (const token of tokens)
      ensure(!ledger.isAssociated(account.num, token.num), 'TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT');
    return {
      requiredKeys: account.key ? [account.key] : [],
      execute: () => {
        for (const token of tokens) {
          // A contract's relationships stay out of the pools the generated load picks holders from.
          if (account.contract) ledger.tokenBalances.set(`${account.num}/${token.num}`, 0n);
          else ledger.associate(account.num, token.num);
          if (token.settings?.freezeDefault) token.frozen?.add(account.num);
        }
        return {};
      },
    };
  },
};

export const tokenDissociate: TxHandler = {
  price: () => ({ kind: 'tokenDissociate' }),
  pure: (data) => ensure(data.account, 'INVALID_ACCOUNT_ID'),
  handle: ({ net, data }) => {
    const { ledger } = net;
    const account = liveParty(ledger, data.account);
    const tokens = tokenList(data).map((id) => liveToken(ledger, id));
    for (const token of tokens) {
      ensure(ledger.isAssociated(account.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
      ensure(token.treasury !== account.num, 'ACCOUNT_IS_TREASURY');
      const held = ledger.tokenBalance(account.num, token.num) === 0n;
      ensure(held || token.type === 'FUNGIBLE_COMMON', 'ACCOUNT_STILL_OWNS_NFTS');
      ensure(held, 'TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES');
    }
    return {
      requiredKeys: account.key ? [account.key] : [],
      execute: () => {
        for (const token of tokens) {
          ledger.tokenBalances.delete(`${account.num}/${token.num}`);
          ledger.accounts.get(account.num)?.tokens.delete(token.num);
          ledger.associations.get(token.num)?.delete(account.num);
        }
        return {};
      },
    };
  },
};

/** Freeze, unfreeze, grant and revoke KYC: one account's standing for one token, under the token's key for it. */
function accountStanding(keyName: 'freezeKey' | 'kycKey', apply: (token: Token, account: bigint) => void): TxHandler {
  return {
    price: () => ({ kind: keyName === 'freezeKey' ? 'tokenFreeze' : 'tokenKyc' }),
    pure: (data) => {
      ensure(data.token, 'INVALID_TOKEN_ID');
      ensure(data.account, 'INVALID_ACCOUNT_ID');
    },
    handle: ({ net, data }) => {
      const token = liveToken(net.ledger, data.token);
      const key = tokenKey(token, keyName);
      const account = liveParty(net.ledger, data.account);
      ensure(net.ledger.isAssociated(account.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
      return {
        requiredKeys: [key],
        execute: () => {
          apply(token, account.num);
          return {};
        },
      };
    },
  };
}

export const tokenFreeze = accountStanding('freezeKey', (token, account) => token.frozen?.add(account));
export const tokenUnfreeze = accountStanding('freezeKey', (token, account) => token.frozen?.delete(account));
export const tokenGrantKyc = accountStanding('kycKey', (token, account) => token.kycGranted?.add(account));
export const tokenRevokeKyc = accountStanding('kycKey', (token, account) => token.kycGranted?.delete(account));

function pause(paused: boolean): TxHandler {
  return {
    price: () => ({ kind: 'tokenPause' }),
    pure: (data) => ensure(data.token, 'INVALID_TOKEN_ID'),
    handle: ({ net, data }) => {
      const token = liveToken(net.ledger, data.token);
      const key = tokenKey(token, 'pauseKey');
      return {
        requiredKeys: [key],
        execute: () => {
          token.paused = paused;
          return {};
        },
      };
    },
  };
}

export const tokenPause = pause(true);
export const tokenUnpause = pause(false);

export const tokenDelete: TxHandler = {
  price: () => ({ kind: 'tokenDelete' }),
  pure: (data) => ensure(data.token, 'INVALID_TOKEN_ID'),
  handle: ({ net, data }) => {
    const token = liveToken(net.ledger, data.token);
    const key = tokenKey(token, 'adminKey');
    return {
      requiredKeys: [key],
      execute: () => {
        token.deleted = true;
        return {};
      },
    };
  },
};
