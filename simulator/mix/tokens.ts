/** Token service transactions: create, associate, mint, burn, and fungible / NFT transfers. */
import { accountPb, i64, tokenPb } from '../ledger/ids.ts';
import type { Token } from '../ledger/ledger.ts';
import { keyPb } from '../network/keys.ts';
import type { Network, Outcome } from '../network/network.ts';
import { HbarTransfers, TokenTransfers } from '../network/transfers.ts';
import { HBAR, maybeMemo, otherUser, payerWith } from './pick.ts';

const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
const AUTO_RENEW_SECONDS = '7776000';

/**
 * A TokenCreate's effect on the model: the token under the next entity number, its treasury associated and holding
 * the initial supply; the outcome carries the new token's id, the treasury's automatic association and the supply's
 * transfer.
 */
export function tokenCreated(net: Network, fields: Omit<Token, 'num'>): { num: bigint; outcome: Outcome } {
  const num = net.ledger.allocateEntity();
  net.ledger.tokens.set(num, { num, ...fields });
  net.ledger.associate(fields.treasury, num);
  const tokens = new TokenTransfers();
  if (fields.totalSupply > 0n) {
    net.ledger.addTokenBalance(fields.treasury, num, fields.totalSupply);
    tokens.add(num, fields.treasury, fields.totalSupply);
  }
  return {
    num,
    outcome: {
      tokens,
      receipt: { tokenID: tokenPb(num) },
      record: { automatic_token_associations: [{ token_id: tokenPb(num), account_id: accountPb(fields.treasury) }] },
    },
  };
}

/** A treasury account creates a fungible token (with an initial supply) or an NFT collection. */
export async function createToken(net: Network, kind?: Token['type']): Promise<boolean> {
  const treasury = payerWith(net, 100n * HBAR);
  if (!treasury?.key) return false;
  const type = kind ?? (net.random.chance(0.6) ? 'FUNGIBLE_COMMON' : 'NON_FUNGIBLE_UNIQUE');
  const fungible = type === 'FUNGIBLE_COMMON';
  const word = net.random.words(1);
  const name = `${word[0]?.toUpperCase()}${word.slice(1)} ${fungible ? 'Coin' : 'Collection'}`;
  const symbol = word.slice(0, 4).toUpperCase();
  const decimals = fungible ? net.random.int(0, 8) : 0;
  const initialSupply = fungible ? net.random.bigint(1_000n, 1_000_000_000n) * 10n ** BigInt(decimals) : 0n;
  const key = keyPb(treasury.key);
  const memo = maybeMemo(net, 0.5);
  await net.submit({
    payer: treasury.num,
    body: {
      tokenCreation: {
        name,
        symbol,
        ...(decimals > 0 ? { decimals } : {}),
        ...(initialSupply > 0n ? { initialSupply: i64(initialSupply) } : {}),
        treasury: accountPb(treasury.num),
        adminKey: key,
        supplyKey: key,
        autoRenewAccount: accountPb(treasury.num),
        autoRenewPeriod: { seconds: AUTO_RENEW_SECONDS },
        ...(memo ? { memo } : {}),
        ...(fungible ? {} : { tokenType: 1 }),
      },
    },
    price: 'tokenCreate',
    execute: (): Outcome => {
      const { num, outcome } = tokenCreated(net, {
        type,
        name,
        symbol,
        decimals,
        treasury: treasury.num,
        totalSupply: initialSupply,
        nextSerial: 1n,
      });
      (fungible ? net.ledger.fungibleTokens : net.ledger.nftTokens).add(num);
      return outcome;
    },
  });
  return true;
}

/** An account associates itself with one or two tokens it does not hold yet. */
export async function associate(net: Network): Promise<boolean> {
  const account = payerWith(net, 10n * HBAR);
  if (!account) return false;
  const wanted = new Set<bigint>();
  for (let i = 0; i < 2; i++) {
    const pool = net.random.chance(0.6) ? net.ledger.fungibleTokens : net.ledger.nftTokens;
    const token = pool.pick(net.random);
    if (token !== undefined && !account.tokens.has(token)) wanted.add(token);
  }
  if (wanted.size === 0) return false;
  const tokens = [...wanted].sort((a, b) => (a < b ? -1 : 1));
  await net.submit({
    payer: account.num,
    body: { tokenAssociate: { account: accountPb(account.num), tokens: tokens.map(tokenPb) } },
    price: 'tokenAssociate',
    execute: () => {
      for (const token of tokens) net.ledger.associate(account.num, token);
      return {};
    },
  });
  return true;
}

function treasuryPayer(net: Network, token: Token) {
  const treasury = net.ledger.account(token.treasury);
  return !treasury.deleted && treasury.balance >= 20n * HBAR ? treasury : undefined;
}

/** The treasury mints fungible units, or one to five NFTs with metadata. */
export async function mint(net: Network): Promise<boolean> {
  const nft = net.random.chance(0.5);
  const num = (nft ? net.ledger.nftTokens : net.ledger.fungibleTokens).pick(net.random);
  const token = num === undefined ? undefined : net.ledger.tokens.get(num);
  if (!token || !treasuryPayer(net, token)) return false;
  const amount = nft ? 0n : net.random.bigint(1n, 1_000_000n) * 10n ** BigInt(token.decimals);
  const metadata = nft
    ? Array.from({ length: net.random.int(1, 5) }, () =>
        new TextEncoder().encode(`ipfs://bafy${net.random.words(1)}${token.nextSerial}/meta.json`),
      )
    : [];
  await net.submit({
    payer: token.treasury,
    body: { tokenMint: { token: tokenPb(token.num), ...(nft ? { metadata } : { amount: i64(amount) }) } },
    price: nft ? 'nftMint' : 'tokenMint',
    payloadBytes: metadata.reduce((n, m) => n + m.length, 0),
    execute: () => {
      const tokens = new TokenTransfers();
      const serials: (number | string)[] = [];
      if (nft) {
        for (const meta of metadata) {
          const serial = net.ledger.mintNft(token, meta);
          serials.push(i64(serial));
          tokens.nft(token.num, { serial, from: 0n, to: token.treasury });
        }
      } else {
        net.ledger.addTokenBalance(token.treasury, token.num, amount);
        token.totalSupply += amount;
        tokens.add(token.num, token.treasury, amount);
      }
      return {
        tokens,
        receipt: { newTotalSupply: i64(token.totalSupply), ...(nft ? { serialNumbers: serials } : {}) },
      };
    },
  });
  return true;
}

/** The treasury burns units it holds, or NFTs still in the treasury. */
export async function burn(net: Network): Promise<boolean> {
  const nft = net.random.chance(0.5);
  const num = (nft ? net.ledger.nftTokens : net.ledger.fungibleTokens).pick(net.random);
  const token = num === undefined ? undefined : net.ledger.tokens.get(num);
  if (!token || !treasuryPayer(net, token)) return false;
  const serials = nft ? net.ledger.nftsOwnedBy(token.treasury, token.num, net.random.int(1, 3)) : [];
  const held = net.ledger.tokenBalance(token.treasury, token.num);
  const amount = nft ? 0n : held / BigInt(net.random.int(10, 1000));
  if (nft ? serials.length === 0 : amount === 0n) return false;
  await net.submit({
    payer: token.treasury,
    body: {
      tokenBurn: {
        token: tokenPb(token.num),
        ...(nft ? { serialNumbers: serials.map(i64) } : { amount: i64(amount) }),
      },
    },
    price: 'tokenBurn',
    execute: () => {
      const tokens = new TokenTransfers();
      if (nft) {
        for (const serial of serials) {
          net.ledger.burnNft(token, serial);
          tokens.nft(token.num, { serial, from: token.treasury, to: 0n });
        }
      } else {
        net.ledger.addTokenBalance(token.treasury, token.num, -amount);
        token.totalSupply -= amount;
        tokens.add(token.num, token.treasury, -amount);
      }
      return { tokens, receipt: { newTotalSupply: i64(token.totalSupply) } };
    },
  });
  return true;
}

/**
 * A holder sends fungible units or an NFT. The receiver is usually associated; otherwise a free
 * auto-association slot associates it on the fly, and without one the transfer fails (fee only). One in five
 * is a sale: the receiver pays hbar in the same transfer and signs it too.
 */
export async function tokenTransfer(net: Network, nft: boolean): Promise<boolean> {
  const { ledger, random } = net;
  const num = (nft ? ledger.nftTokens : ledger.fungibleTokens).pick(random);
  const token = num === undefined ? undefined : ledger.tokens.get(num);
  const holders = num === undefined ? undefined : ledger.associations.get(num);
  if (!token || !holders) return false;
  const sender = holders.find(
    random,
    (a) => ledger.tokenBalance(a, token.num) > 0n && ledger.account(a).balance >= 5n * HBAR,
  );
  if (sender === undefined) return false;
  const receiver = random.chance(0.8)
    ? holders.find(random, (a) => a !== sender && !ledger.account(a).deleted)
    : otherUser(net, sender)?.num;
  if (receiver === undefined || receiver === sender) return false;
  const associated = ledger.isAssociated(receiver, token.num);
  const autoAssociates = !associated && ledger.freeAutoAssociations(ledger.account(receiver)) > 0;
  const fails = !associated && !autoAssociates;
  const serial = nft ? random.pick(ledger.nftsOwnedBy(sender, token.num, 10)) : 0n;
  const amount = nft ? 1n : random.bigint(1n, ledger.tokenBalance(sender, token.num));
  const transfers = new TokenTransfers();
  if (nft) transfers.nft(token.num, { serial, from: sender, to: receiver });
  else
    transfers
      .add(token.num, sender, -amount)
      .add(token.num, receiver, amount)
      .expectDecimals(token.num, token.decimals);
  const buyer = ledger.account(receiver);
  const sale = random.chance(0.2) && buyer.key !== undefined && buyer.balance >= 20n * HBAR;
  const payment = sale ? new HbarTransfers().add(receiver, -random.bigint(1n, 10n) * HBAR) : undefined;
  if (payment) payment.add(sender, -(payment.amounts.get(receiver) ?? 0n));
  await net.submit({
    payer: sender,
    body: {
      cryptoTransfer: {
        ...(payment ? { transfers: { accountAmounts: payment.toPb() } } : {}),
        tokenTransfers: transfers.toPb(true),
      },
    },
    price: 'tokenTransfer',
    ...(sale && buyer.key ? { extraSigners: [buyer.key] } : {}),
    memo: maybeMemo(net, 0.1),
    execute: (): Outcome => {
      if (fails) return { status: TOKEN_NOT_ASSOCIATED_TO_ACCOUNT };
      if (autoAssociates) ledger.autoAssociate(receiver, token.num);
      applyTokenTransfers(net, transfers);
      return {
        tokens: transfers,
        ...(payment ? { transfers: payment } : {}),
        ...(autoAssociates
          ? {
              record: {
                automatic_token_associations: [{ token_id: tokenPb(token.num), account_id: accountPb(receiver) }],
              },
            }
          : {}),
      };
    },
  });
  return true;
}

/** Applies plain (non-mint, non-burn) token movements to the ledger. */
export function applyTokenTransfers(net: Network, transfers: TokenTransfers): void {
  for (const [token, account, amount] of transfers.fungibleDeltas()) net.ledger.addTokenBalance(account, token, amount);
  for (const [token, move] of transfers.nftMoves()) net.ledger.moveNft(token, move.serial, move.from, move.to);
}
