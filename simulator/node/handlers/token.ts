/**
 * TokenService transactions submitted to a node: create, associate, dissociate, mint, burn, wipe, freeze, KYC,
 * pause, delete. Each change needs the signature of the key the token holds for it; a token without that key
 * answers the node's `TOKEN_HAS_NO_…_KEY`.
 */
import { i64 } from '../../ledger/ids.ts';
import type { LedgerKey, Token, TokenSettings } from '../../ledger/ledger.ts';
import { tokenCreated } from '../../mix/tokens.ts';
import { TokenTransfers } from '../../network/transfers.ts';
import { nsOf } from '../entity-ids.ts';
import {
  bigOf,
  checkMemo,
  DEFAULT_AUTO_RENEW_SECONDS,
  ensure,
  type Handling,
  type Pb,
  type TxHandler,
  textOf,
} from '../handling.ts';
import { keyFromPb } from '../signatures.ts';
import { liveAccount, liveToken } from './lookups.ts';

const KEY_FIELDS = {
  adminKey: 'adminKey',
  kycKey: 'kycKey',
  freezeKey: 'freezeKey',
  wipeKey: 'wipeKey',
  supplyKey: 'supplyKey',
  feeScheduleKey: 'feeScheduleKey',
  pause_key: 'pauseKey',
  metadata_key: 'metadataKey',
} as const;

const MAX_NAME_BYTES = 100;
const MAX_METADATA_BYTES = 100;

export const tokenCreate: TxHandler = {
  price: () => ({ kind: 'tokenCreate' }),
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
    for (const field of Object.keys(KEY_FIELDS)) if (data[field]) ensure(keyFromPb(data[field]), 'BAD_ENCODING');
    if (data.freezeDefault) ensure(data.freezeKey, 'TOKEN_HAS_NO_FREEZE_KEY');
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const treasury = liveAccount(ledger, data.treasury, 'INVALID_TREASURY_ACCOUNT_FOR_TOKEN');
    const settings: TokenSettings = { memo: textOf(data.memo) };
    for (const [field, name] of Object.entries(KEY_FIELDS)) {
      const key = data[field] ? keyFromPb(data[field]) : undefined;
      if (key) settings[name] = key;
    }
    if (Number(data.supplyType ?? 0) === 1) settings.maxSupply = bigOf(data.maxSupply);
    if (data.freezeDefault) settings.freezeDefault = true;
    if (data.metadata instanceof Uint8Array && data.metadata.length > 0)
      settings.metadata = new Uint8Array(data.metadata);
    const autoRenewAccount = data.autoRenewAccount ? liveAccount(ledger, data.autoRenewAccount) : undefined;
    if (autoRenewAccount) settings.autoRenewAccount = autoRenewAccount.num;
    // An expiry given without an auto-renew period leaves the token without one.
    if (data.autoRenewPeriod) settings.autoRenewSeconds = bigOf((data.autoRenewPeriod as Pb).seconds);
    else if (!data.expiry) settings.autoRenewSeconds = DEFAULT_AUTO_RENEW_SECONDS;
    const requiredKeys = [treasury.key, settings.adminKey, autoRenewAccount?.key].filter(
      (k): k is LedgerKey => k !== undefined,
    );
    const nft = Number(data.tokenType ?? 0) === 1;
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
        return outcome;
      },
    };
  },
};

function tokenKey(token: Token, name: keyof typeof KEY_NAMES): LedgerKey {
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
    const account = liveAccount(ledger, data.account);
    const tokens = tokenList(data).map((id) => liveToken(ledger, id));
    for (const token of tokens) ensure(!account.tokens.has(token.num), 'TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT');
    return {
      requiredKeys: account.key ? [account.key] : [],
      execute: () => {
        for (const token of tokens) {
          ledger.associate(account.num, token.num);
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
    const account = liveAccount(ledger, data.account);
    const tokens = tokenList(data).map((id) => liveToken(ledger, id));
    for (const token of tokens) {
      ensure(account.tokens.has(token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
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
          account.tokens.delete(token.num);
          ledger.associations.get(token.num)?.delete(account.num);
        }
        return {};
      },
    };
  },
};

const metadataList = (data: Pb): Uint8Array[] =>
  Array.isArray(data.metadata) ? (data.metadata as Uint8Array[]).map((m) => new Uint8Array(m)) : [];

export const tokenMint: TxHandler = {
  price: (data) => ({ kind: metadataList(data).length > 0 ? 'nftMint' : 'tokenMint' }),
  pure: (data) => {
    ensure(data.token, 'INVALID_TOKEN_ID');
    const metadata = metadataList(data);
    ensure(!(metadata.length > 0 && bigOf(data.amount) > 0n), 'INVALID_TRANSACTION_BODY');
    ensure(metadata.length <= 10, 'BATCH_SIZE_LIMIT_EXCEEDED');
    for (const m of metadata) ensure(m.length <= MAX_METADATA_BYTES, 'METADATA_TOO_LONG');
  },
  handle: ({ net, data }): Handling => {
    const { ledger } = net;
    const token = liveToken(ledger, data.token);
    const supplyKey = tokenKey(token, 'supplyKey');
    const metadata = metadataList(data);
    const nft = token.type === 'NON_FUNGIBLE_UNIQUE';
    // A fungible mint of nothing succeeds and changes nothing, as on the node.
    if (nft) ensure(metadata.length > 0, 'INVALID_TOKEN_MINT_METADATA');
    else ensure(metadata.length === 0 && bigOf(data.amount) >= 0n, 'INVALID_TOKEN_MINT_AMOUNT');
    const amount = nft ? BigInt(metadata.length) : bigOf(data.amount);
    const max = token.settings?.maxSupply;
    if (max) ensure(token.totalSupply + amount <= max, 'TOKEN_MAX_SUPPLY_REACHED');
    ensure(!token.paused, 'TOKEN_IS_PAUSED');
    return {
      requiredKeys: [supplyKey],
      execute: ({ consensusNs }) => {
        const tokens = new TokenTransfers();
        const serials: (number | string)[] = [];
        if (nft) {
          for (const m of metadata) {
            const serial = ledger.mintNft(token, m);
            const minted = ledger.nft(token.num, serial);
            if (minted) minted.mintedNs = consensusNs;
            serials.push(i64(serial));
            tokens.nft(token.num, { serial, from: 0n, to: token.treasury });
          }
        } else {
          ledger.addTokenBalance(token.treasury, token.num, amount);
          token.totalSupply += amount;
          tokens.add(token.num, token.treasury, amount);
        }
        return {
          tokens,
          receipt: { newTotalSupply: i64(token.totalSupply), ...(nft ? { serialNumbers: serials } : {}) },
        };
      },
    };
  },
};

const serialList = (data: Pb): bigint[] =>
  Array.isArray(data.serialNumbers) ? (data.serialNumbers as unknown[]).map(bigOf) : [];

export const tokenBurn: TxHandler = {
  price: () => ({ kind: 'tokenBurn' }),
  pure: (data) => ensure(data.token, 'INVALID_TOKEN_ID'),
  handle: ({ net, data }) => {
    const { ledger } = net;
    const token = liveToken(ledger, data.token);
    const supplyKey = tokenKey(token, 'supplyKey');
    ensure(!token.paused, 'TOKEN_IS_PAUSED');
    const nft = token.type === 'NON_FUNGIBLE_UNIQUE';
    const serials = serialList(data);
    const amount = bigOf(data.amount);
    if (nft) {
      ensure(serials.length > 0, 'INVALID_TOKEN_BURN_METADATA');
      for (const serial of serials) {
        const owned = ledger.nft(token.num, serial);
        ensure(owned && !owned.deleted, 'INVALID_NFT_ID');
        ensure(owned.owner === token.treasury, 'TREASURY_MUST_OWN_BURNED_NFT');
      }
    } else {
      ensure(amount >= 0n, 'INVALID_TOKEN_BURN_AMOUNT');
      ensure(ledger.tokenBalance(token.treasury, token.num) >= amount, 'INSUFFICIENT_TOKEN_BALANCE');
    }
    return {
      requiredKeys: [supplyKey],
      execute: () => {
        const tokens = new TokenTransfers();
        if (nft) {
          for (const serial of serials) {
            ledger.burnNft(token, serial);
            tokens.nft(token.num, { serial, from: token.treasury, to: 0n });
          }
        } else {
          ledger.addTokenBalance(token.treasury, token.num, -amount);
          token.totalSupply -= amount;
          tokens.add(token.num, token.treasury, -amount);
        }
        return { tokens, receipt: { newTotalSupply: i64(token.totalSupply) } };
      },
    };
  },
};

export const tokenWipe: TxHandler = {
  price: () => ({ kind: 'tokenWipe' }),
  pure: (data) => ensure(data.token, 'INVALID_TOKEN_ID'),
  handle: ({ net, data }) => {
    const { ledger } = net;
    const token = liveToken(ledger, data.token);
    const wipeKey = tokenKey(token, 'wipeKey');
    const account = liveAccount(ledger, data.account);
    ensure(account.num !== token.treasury, 'CANNOT_WIPE_TOKEN_TREASURY_ACCOUNT');
    ensure(account.tokens.has(token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    const serials = serialList(data);
    const amount = bigOf(data.amount);
    const nft = token.type === 'NON_FUNGIBLE_UNIQUE';
    if (nft) {
      for (const serial of serials)
        ensure(ledger.nft(token.num, serial)?.owner === account.num, 'ACCOUNT_DOES_NOT_OWN_WIPED_NFT');
    } else ensure(amount >= 0n && ledger.tokenBalance(account.num, token.num) >= amount, 'INVALID_WIPING_AMOUNT');
    return {
      requiredKeys: [wipeKey],
      execute: () => {
        const tokens = new TokenTransfers();
        if (nft) {
          for (const serial of serials) {
            ledger.burnNft(token, serial, account.num);
            tokens.nft(token.num, { serial, from: account.num, to: 0n });
          }
        } else {
          ledger.addTokenBalance(account.num, token.num, -amount);
          token.totalSupply -= amount;
          tokens.add(token.num, account.num, -amount);
        }
        return { tokens, receipt: { newTotalSupply: i64(token.totalSupply) } };
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
      const account = liveAccount(net.ledger, data.account);
      ensure(account.tokens.has(token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
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
