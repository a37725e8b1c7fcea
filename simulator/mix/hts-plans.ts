/**
 * What an HtsCaller contract asks of the HTS system contract (0x167) when the HTS family calls (mix/hts-calls.ts):
 * drawn from the ledger model so that most calls succeed and a few fail the way the node refuses them.
 */
import { creationFee, SUPPLY_KEY_TYPE } from '../evm/hts-create.ts';
import {
  htsBurnNftsCallData,
  htsCallData,
  htsCreateCallData,
  htsCryptoTransferCallData,
  htsMintNftsCallData,
  htsTransferNftsCallData,
  htsTransferTokensCallData,
  htsWipeNftsCallData,
} from '../evm/hts-functions.ts';
import { longZeroAddress } from '../ledger/ids.ts';
import type { Contract, Token } from '../ledger/ledger.ts';
import type { Network } from '../network/network.ts';

/** A call's data and the tinybars sent with it. */
export interface SystemCallPlan {
  readonly data: Uint8Array;
  readonly value: bigint;
}

const AUTO_RENEW_SECONDS = 7_776_000n;

/**
 * What the contract asks of 0x167: a fungible token of its own while it is no fungible token's treasury, now and then
 * an NFT collection of its own while it has none, else a call of `planAccountCall` with no value.
 */
export function planSystemCall(net: Network, caller: Contract): SystemCallPlan | undefined {
  const own = [...net.ledger.tokens.values()].filter((t) => t.treasury === caller.num && !t.deleted);
  if (!own.some((t) => t.type === 'FUNGIBLE_COMMON')) return planCreate(net, caller, 'FUNGIBLE_COMMON');
  if (!own.some((t) => t.type === 'NON_FUNGIBLE_UNIQUE') && net.random.chance(0.3)) {
    return planCreate(net, caller, 'NON_FUNGIBLE_UNIQUE');
  }
  const data = planAccountCall(net, caller);
  return data && { data, value: 0n };
}

/**
 * A token with the contract as treasury and auto-renew account: a fungible one with no keys, or an NFT collection
 * whose supply key is the contract's id. A contract that holds no hbar yet (it never created a token) sends a tinybar
 * less than the fee, which the node refuses; that call leaves the value with it, so its next attempt pays the fee and
 * a little more (the contract keeps the rest).
 */
function planCreate(net: Network, caller: Contract, type: Token['type']): SystemCallPlan {
  const { random, ledger } = net;
  const self = longZeroAddress(caller.num);
  const word = random.words(1);
  const fee = creationFee(ledger.exchangeRate);
  const fungible = type === 'FUNGIBLE_COMMON';
  const data = htsCreateCallData({
    type,
    name: `${word[0]?.toUpperCase()}${word.slice(1)} ${fungible ? 'Minted' : 'Collection'}`,
    symbol: `${fungible ? 'C' : 'N'}${word.slice(0, 3).toUpperCase()}`,
    memo: '',
    treasury: self,
    autoRenewAccount: self,
    autoRenewPeriod: AUTO_RENEW_SECONDS,
    keys: fungible ? [] : [{ keyType: SUPPLY_KEY_TYPE, contract: self }],
    initialSupply: fungible ? random.bigint(1n, 1_000_000_000n) : 0n,
    decimals: fungible ? random.bigint(0n, 8n) : 0n,
  });
  return { data, value: caller.balance === 0n ? fee - 1n : fee + random.bigint(0n, fee / 10n) };
}

/**
 * What the contract asks of 0x167 for its own account: with units of a fungible token, mostly a transfer of some (with
 * NFTs, a transfer of serials) to an associated account (now and then more than it holds, or to an account neither
 * associated nor able to associate automatically); with a relationship, an approval or a dissociation; otherwise an
 * association (a few with a token it is associated with already). Before those, now and then a change to a token it
 * manages, or a mint or a burn of its own NFT collection.
 */
function planAccountCall(net: Network, caller: Contract): Uint8Array | undefined {
  const { ledger, random } = net;
  const self = longZeroAddress(caller.num);
  const supplied = [...ledger.tokens.values()].filter((t) => t.manager === caller.num && !t.deleted);
  // The tokens users created with every key naming the contract; its own NFT collection has only the supply key.
  const managed = supplied.filter((t) => t.treasury !== caller.num);
  // A paused token is called again at once: mostly unpaused, else a change it refuses.
  const paused = managed.find((t) => t.paused);
  if (paused) return planSupplyCall(net, paused, caller);
  if (managed.length > 0 && random.chance(0.4)) return planSupplyCall(net, random.pick(managed), caller);
  const collection = supplied.find((t) => t.treasury === caller.num);
  if (collection && random.chance(0.15)) return planNftSupply(net, collection);
  // Tokens of the HAPI families' pools the contract is associated with (not those it manages).
  const related = [...ledger.tokens.values()]
    .filter((token) => token.manager === undefined && ledger.tokenBalances.has(`${caller.num}/${token.num}`))
    .map((token) => token.num);
  const held = related.filter((token) => ledger.tokenBalance(caller.num, token) > 0n);
  if (caller.balance > 0n && random.chance(0.1)) {
    const data = planCryptoTransfer(net, caller, held);
    if (data) return data;
  }
  if (held.length > 0 && random.chance(0.5)) {
    // NFTs it holds go first half the time: a contract receives one serial at a time, and units far more often.
    const nfts = held.filter((t) => ledger.tokens.get(t)?.type === 'NON_FUNGIBLE_UNIQUE');
    const token = random.pick(nfts.length > 0 && random.chance(0.5) ? nfts : held);
    if (ledger.tokens.get(token)?.type === 'NON_FUNGIBLE_UNIQUE') return planNftTransfer(net, caller, token);
    const balance = ledger.tokenBalance(caller.num, token);
    const stranger = random.chance(0.3)
      ? ledger.users.find(random, (n) => !ledger.isAssociated(n, token) && ledger.account(n).maxAutoAssociations === 0)
      : undefined;
    const receiver =
      stranger ?? ledger.associations.get(token)?.find(random, (n) => !ledger.account(n).deleted && n !== caller.num);
    if (receiver === undefined) return undefined;
    const other = ledger.associations
      .get(token)
      ?.find(random, (n) => !ledger.account(n).deleted && n !== caller.num && n !== receiver);
    if (stranger === undefined && other !== undefined && balance > 1n && random.chance(0.3)) {
      // transferTokens: units to two accounts at once, the contract's own debit listed first.
      const first = random.bigint(1n, balance - 1n);
      const second = random.bigint(1n, balance - first);
      return htsTransferTokensCallData(longZeroAddress(token), [
        { account: self, amount: -(first + second) },
        { account: ledger.canonicalAddress(receiver), amount: first },
        { account: ledger.canonicalAddress(other), amount: second },
      ]);
    }
    const amount = random.chance(0.15) ? balance + 1n : random.bigint(1n, balance);
    return htsCallData('transferToken', [longZeroAddress(token), self, ledger.canonicalAddress(receiver), amount]);
  }
  const empty = related.filter((token) => ledger.tokenBalance(caller.num, token) === 0n);
  if (empty.length > 0 && random.chance(0.4)) {
    return htsCallData('dissociateToken', [self, longZeroAddress(random.pick(empty))]);
  }
  const fungible = related.filter((token) => ledger.tokens.get(token)?.type === 'FUNGIBLE_COMMON');
  if (fungible.length > 0 && random.chance(0.3)) {
    const spender = ledger.users.find(random, (n) => !ledger.account(n).deleted);
    if (spender === undefined) return undefined;
    const token = random.pick(fungible);
    return htsCallData('approve', [
      longZeroAddress(token),
      ledger.canonicalAddress(spender),
      random.bigint(1n, 1_000_000n),
    ]);
  }
  const pool = random.chance(0.5) ? ledger.fungibleTokens : ledger.nftTokens;
  const token =
    related.length > 0 && random.chance(0.25)
      ? random.pick(related)
      : pool.find(random, (t) => !ledger.tokenBalances.has(`${caller.num}/${t}`));
  return token === undefined ? undefined : htsCallData('associateToken', [self, longZeroAddress(token)]);
}

/**
 * A `cryptoTransfer` (v2) of some of the contract's hbar to a user (now and then more than it holds) with units of a
 * fungible token it holds to an account associated with that token. Units make the transfer's fee subtype
 * TOKEN_FUNGIBLE_COMMON, which the network's fee schedule does not price, so its gas is the canonical price (an
 * hbar-only transfer's would come from the schedule's CryptoTransfer price, which the model does not compute).
 */
function planCryptoTransfer(net: Network, caller: Contract, held: readonly bigint[]): Uint8Array | undefined {
  const { ledger, random } = net;
  const self = longZeroAddress(caller.num);
  const fungible = held.filter((token) => ledger.tokens.get(token)?.type === 'FUNGIBLE_COMMON');
  if (fungible.length === 0) return undefined;
  const token = random.pick(fungible);
  const to = ledger.associations.get(token)?.find(random, (n) => !ledger.account(n).deleted && n !== caller.num);
  const receiver = ledger.users.find(random, (n) => !ledger.account(n).deleted);
  if (to === undefined || receiver === undefined) return undefined;
  const amount = random.chance(0.1) ? caller.balance + 1n : random.bigint(1n, caller.balance);
  const hbar = [
    { account: self, amount: -amount },
    { account: ledger.canonicalAddress(receiver), amount },
  ];
  const units = random.bigint(1n, ledger.tokenBalance(caller.num, token));
  return htsCryptoTransferCallData(hbar, [
    {
      token: longZeroAddress(token),
      adjustments: [
        { account: self, amount: -units },
        { account: ledger.canonicalAddress(to), amount: units },
      ],
    },
  ]);
}

/**
 * NFTs of `token` the contract holds to an account associated with it: one serial by transferNFT, or all it holds
 * (up to three) by transferNFTs.
 */
function planNftTransfer(net: Network, caller: Contract, token: bigint): Uint8Array | undefined {
  const { ledger, random } = net;
  const self = longZeroAddress(caller.num);
  const receiver = ledger.associations.get(token)?.find(random, (n) => !ledger.account(n).deleted && n !== caller.num);
  if (receiver === undefined) return undefined;
  const to = ledger.canonicalAddress(receiver);
  const serials = ledger.nftsOwnedBy(caller.num, token, 3);
  if (random.chance(0.5)) return htsCallData('transferNFT', [longZeroAddress(token), self, to, serials[0] ?? 0n]);
  return htsTransferNftsCallData(
    longZeroAddress(token),
    serials.map((serial) => ({ from: self, to, serial })),
  );
}

/**
 * A change to a token the contract manages: a mint or a burn from its treasury (of fungible units a few beyond what
 * the treasury holds; of NFTs, new serials with metadata or serials the treasury holds), a wipe of what the treasury
 * sent the contract, its own association with the token and then freezes and KYC changes of that relationship, now and
 * then a pause (refusing the next changes) or its deletion, or for a paused token mostly an unpause.
 */
function planSupplyCall(net: Network, token: Token, caller: Contract): Uint8Array {
  const { random, ledger } = net;
  const address = longZeroAddress(token.num);
  const self = longZeroAddress(caller.num);
  if (token.paused ? random.chance(0.7) : random.chance(0.15)) {
    return htsCallData(token.paused ? 'unpauseToken' : 'pauseToken', [address]);
  }
  if (!token.paused && random.chance(0.04)) return htsCallData('deleteToken', [address]);
  const holding = ledger.tokenBalance(caller.num, token.num);
  // TokenAccountWipe refuses an account without KYC when the token has a KYC key (ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN).
  const wipeable = !token.frozen?.has(caller.num) && (token.kycGranted?.has(caller.num) ?? false);
  if (!token.paused && holding > 0n && !wipeable) {
    // What the treasury sent stays wipeable: the relationship is unfrozen and granted KYC again first.
    return htsCallData(token.frozen?.has(caller.num) ? 'unfreezeToken' : 'grantTokenKyc', [address, self]);
  }
  if (!token.paused && holding > 0n && random.chance(0.5)) {
    if (token.type === 'FUNGIBLE_COMMON') {
      return htsCallData('wipeTokenAccount', [address, self, random.bigint(1n, holding)]);
    }
    return htsWipeNftsCallData(address, self, ledger.nftsOwnedBy(caller.num, token.num, 2));
  }
  if (!token.paused && random.chance(0.4)) {
    if (!ledger.tokenBalances.has(`${caller.num}/${token.num}`)) return htsCallData('associateToken', [self, address]);
    const frozen = token.frozen?.has(caller.num) ?? false;
    const granted = token.kycGranted?.has(caller.num) ?? false;
    const operation = random.chance(0.5)
      ? frozen && random.chance(0.7)
        ? 'unfreezeToken'
        : 'freezeToken'
      : granted && random.chance(0.5)
        ? 'revokeTokenKyc'
        : 'grantTokenKyc';
    return htsCallData(operation, [address, self]);
  }
  if (token.type === 'NON_FUNGIBLE_UNIQUE') return planNftSupply(net, token);
  // mintToken(address,int64,bytes[]) and burnToken(address,int64,int64[]): no metadata, no serials.
  const none = [0x60n, 0n];
  if (random.chance(0.6)) return htsCallData('mintToken', [address, random.bigint(1n, 1_000_000n), ...none]);
  const held = ledger.tokenBalance(token.treasury, token.num);
  const amount = held === 0n || random.chance(0.15) ? held + 1n : random.bigint(1n, held);
  return htsCallData('burnToken', [address, amount, ...none]);
}

/** A burn of up to three serials the treasury holds, or a mint of one to three new serials with metadata. */
function planNftSupply(net: Network, token: Token): Uint8Array {
  const { random, ledger } = net;
  const address = longZeroAddress(token.num);
  const owned = ledger.nftsOwnedBy(token.treasury, token.num, random.int(1, 3));
  if (owned.length > 0 && random.chance(0.4)) return htsBurnNftsCallData(address, owned);
  const metadata = Array.from({ length: random.int(1, 3) }, () =>
    new TextEncoder().encode(`ipfs://bafy${random.words(1)}/meta.json`),
  );
  return htsMintNftsCallData(address, metadata);
}
