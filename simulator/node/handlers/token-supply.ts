/** TokenService supply changes submitted to a node: mint, burn and wipe, each under the token's key for it. */
import { i64 } from '../../ledger/ids.ts';
import { TokenTransfers } from '../../network/transfers.ts';
import { bigOf, ensure, type Handling, type Pb, type TxHandler } from '../handling.ts';
import { liveAccount, liveToken } from './lookups.ts';
import { tokenKey } from './token.ts';

const MAX_METADATA_BYTES = 100;

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
