/**
 * CryptoApproveAllowance and CryptoDeleteAllowance submitted to a node: hbar, fungible token and NFT allowances
 * (single serials or a whole collection) in the ledger model's allowance maps, as the generated load keeps them
 * (mix/allowances.ts), under the consensus node's rules (CryptoApproveAllowanceHandler, ApproveAllowanceValidator).
 * Owners and spenders are accounts of the node's account store, contracts included. An owner not named is the payer;
 * an owner other than the payer signs, except for an NFT serial a delegating spender (one the owner approved for the
 * whole collection) passes on, which that spender signs instead. What needs state fails only after the signatures
 * are checked, in the node's order: the allowance count, then the hbar, token and NFT allowances in turn. An amount
 * of 0 removes an allowance.
 */
import type { Ledger, LedgerKey } from '../../ledger/ledger.ts';
import { accountNumOf } from '../entity-ids.ts';
import { bigOf, ensure, type Pb, type TxHandler, wrapped } from '../handling.ts';
import { liveToken, type Party, partyOf } from './lookups.ts';

/** hedera.allowances.maxTransactionLimit and maxAccountLimit, the node's defaults. */
const MAX_TRANSACTION_ALLOWANCES = 20;
const MAX_ACCOUNT_ALLOWANCES = 100;

const list = (value: unknown): Pb[] => (Array.isArray(value) ? (value as Pb[]) : []);

/** Whether an AccountID field names an account (a number other than 0, or an alias). */
function named(id: unknown): boolean {
  const pb = id as Pb | undefined;
  if (!pb || typeof pb !== 'object') return false;
  return bigOf(pb.accountNum) !== 0n || (pb.alias instanceof Uint8Array && pb.alias.length > 0);
}

/**
 * The allowances each owner keeps on its account (hbar, fungible, approved for all: `c:`, `t:` and `n:` keys as in
 * the pool), which the node caps, once `after` (key → kept or removed) is applied.
 */
function checkAccountCaps(ledger: Ledger, owners: Set<bigint>, after: Map<string, boolean>): void {
  for (const owner of owners) {
    const prefix = `${owner}/`;
    let count = 0;
    for (const map of [ledger.cryptoAllowances, ledger.tokenAllowances])
      for (const key of map.keys()) if (key.startsWith(prefix)) count++;
    for (const key of ledger.nftApprovalsForAll) if (key.startsWith(prefix)) count++;
    for (const [poolKey, kept] of after) {
      if (!poolKey.slice(2).startsWith(prefix)) continue;
      const before = ledger.allowanceKeys.has(poolKey);
      count += (kept ? 1 : 0) - (before ? 1 : 0);
    }
    ensure(count <= MAX_ACCOUNT_ALLOWANCES, 'MAX_ALLOWANCES_EXCEEDED');
  }
}

function setAllowance<K>(map: Map<K, bigint>, key: K, amount: bigint, poolKey: string, ledger: Ledger): void {
  if (amount === 0n) {
    map.delete(key);
    ledger.allowanceKeys.delete(poolKey);
  } else {
    map.set(key, amount);
    ledger.allowanceKeys.add(poolKey);
  }
}

/**
 * The keys the node's pre-handle names: an owner's when it is not the payer (INVALID_ALLOWANCE_OWNER_ID when there is
 * no such account), and for an NFT allowance that is not approved-for-all and names a delegating spender, that
 * spender's (INVALID_DELEGATING_SPENDER).
 */
function signers(ledger: Ledger, data: Pb, payer: bigint): LedgerKey[] {
  const keys: LedgerKey[] = [];
  const require = (id: unknown, missing: string) => {
    if (!named(id) || accountNumOf(ledger, id) === payer) return;
    const party = partyOf(ledger, id);
    ensure(party, missing);
    if (party.key) keys.push(party.key);
  };
  for (const allowance of [...list(data.cryptoAllowances), ...list(data.tokenAllowances)])
    require(allowance.owner, 'INVALID_ALLOWANCE_OWNER_ID');
  for (const allowance of list(data.nftAllowances)) {
    const forAll = wrapped<boolean>(allowance.approved_for_all) === true;
    if (!forAll && named(allowance.delegating_spender))
      require(allowance.delegating_spender, 'INVALID_DELEGATING_SPENDER');
    else require(allowance.owner, 'INVALID_ALLOWANCE_OWNER_ID');
  }
  return keys;
}

/** The owner an allowance names, or the payer; a named owner that is missing or deleted is INVALID_ALLOWANCE_OWNER_ID. */
function ownerOf(ledger: Ledger, id: unknown, payer: bigint): Party {
  const num = named(id) ? accountNumOf(ledger, id) : 0n;
  const owner = partyOf(ledger, num === 0n ? { accountNum: payer } : id);
  ensure(owner && !owner.deleted, 'INVALID_ALLOWANCE_OWNER_ID');
  return owner;
}

/** A spender must be a live account (or contract) unless the allowance only removes one. */
function checkSpender(ledger: Ledger, id: unknown, needed: boolean): bigint {
  const spender = partyOf(ledger, id);
  if (needed) ensure(spender && !spender.deleted, 'INVALID_ALLOWANCE_SPENDER_ID');
  return spender?.num ?? accountNumOf(ledger, id);
}

/** The token an allowance names: it must exist (a deleted one still does, for the validator). */
function tokenOf(ledger: Ledger, id: unknown) {
  const token = ledger.tokens.get(bigOf((id as Pb | undefined)?.tokenNum));
  ensure(token, 'INVALID_TOKEN_ID');
  return token;
}

export const approveAllowance: TxHandler = {
  price: () => ({ kind: 'approveAllowance' }),
  pure: (data) => {
    const all = [...list(data.cryptoAllowances), ...list(data.tokenAllowances), ...list(data.nftAllowances)];
    ensure(all.length > 0, 'EMPTY_ALLOWANCES');
    for (const allowance of [...list(data.cryptoAllowances), ...list(data.tokenAllowances)]) {
      ensure(bigOf(allowance.amount) >= 0n, 'NEGATIVE_ALLOWANCE_AMOUNT');
      ensure(allowance.spender, 'INVALID_ALLOWANCE_SPENDER_ID');
    }
    for (const allowance of [...list(data.tokenAllowances), ...list(data.nftAllowances)]) {
      ensure(allowance.spender, 'INVALID_ALLOWANCE_SPENDER_ID');
      ensure(allowance.tokenId, 'INVALID_TOKEN_ID');
    }
  },
  handle: ({ net, data, payer }) => {
    const { ledger } = net;
    return {
      requiredKeys: signers(ledger, data, payer),
      execute: () => {
        const changes = validate(ledger, data, payer);
        for (const change of changes) change();
        return {};
      },
    };
  },
};

/** The node's validation of an approval, in its order; the changes to make once every allowance passed. */
function validate(ledger: Ledger, data: Pb, payer: bigint): (() => void)[] {
  const nftAllowances = list(data.nftAllowances);
  const nftCount = nftAllowances.reduce((n, a) => n + Math.max(1, list(a.serial_numbers).length), 0);
  const total = list(data.cryptoAllowances).length + list(data.tokenAllowances).length + nftCount;
  ensure(total <= MAX_TRANSACTION_ALLOWANCES, 'MAX_ALLOWANCES_EXCEEDED');
  const changes: (() => void)[] = [];
  /** Owners whose kept allowances may grow, and each allowance key's presence once the changes are made. */
  const grown = new Set<bigint>();
  const after = new Map<string, boolean>();
  for (const allowance of list(data.cryptoAllowances)) {
    const owner = ownerOf(ledger, allowance.owner, payer);
    const amount = bigOf(allowance.amount);
    const spender = checkSpender(ledger, allowance.spender, amount !== 0n);
    ensure(spender !== owner.num, 'SPENDER_ACCOUNT_SAME_AS_OWNER');
    const pair = `${owner.num}/${spender}`;
    changes.push(() => setAllowance(ledger.cryptoAllowances, pair, amount, `c:${pair}`, ledger));
    after.set(`c:${pair}`, amount > 0n);
    if (amount > 0n) grown.add(owner.num);
  }
  for (const allowance of list(data.tokenAllowances)) {
    const token = tokenOf(ledger, allowance.tokenId);
    const owner = ownerOf(ledger, allowance.owner, payer);
    ensure(token.type === 'FUNGIBLE_COMMON', 'NFT_IN_FUNGIBLE_TOKEN_ALLOWANCES');
    const amount = bigOf(allowance.amount);
    const spender = checkSpender(ledger, allowance.spender, amount !== 0n);
    const max = token.settings?.maxSupply ?? 0n;
    ensure(max === 0n || amount <= max, 'AMOUNT_EXCEEDS_TOKEN_MAX_SUPPLY');
    // Fungible self-approval is allowed, as ERC-20 allows it.
    ensure(ledger.isAssociated(owner.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    const key = `${owner.num}/${spender}/${token.num}`;
    changes.push(() => setAllowance(ledger.tokenAllowances, key, amount, `t:${key}`, ledger));
    after.set(`t:${key}`, amount > 0n);
    if (amount > 0n) grown.add(owner.num);
  }
  for (const allowance of nftAllowances) {
    const token = tokenOf(ledger, allowance.tokenId);
    ensure(token.type !== 'FUNGIBLE_COMMON', 'FUNGIBLE_TOKEN_IN_NFT_ALLOWANCES');
    const forAll = wrapped<boolean>(allowance.approved_for_all);
    const serials = [...new Set(list(allowance.serial_numbers).map(bigOf))];
    const spender = checkSpender(ledger, allowance.spender, forAll === true || serials.length > 0);
    const owner = ownerOf(ledger, allowance.owner, payer);
    ensure(spender !== owner.num, 'SPENDER_ACCOUNT_SAME_AS_OWNER');
    ensure(ledger.isAssociated(owner.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    const delegating = named(allowance.delegating_spender) ? accountNumOf(ledger, allowance.delegating_spender) : 0n;
    if (delegating !== 0n) {
      // An approved-for-all spender acts for the owner on single serials, but cannot pass the whole collection on.
      ensure(forAll !== true, 'DELEGATING_SPENDER_CANNOT_GRANT_APPROVE_FOR_ALL');
      const delegated = ledger.nftApprovalsForAll.has(`${owner.num}/${delegating}/${token.num}`);
      ensure(delegated, 'DELEGATING_SPENDER_DOES_NOT_HAVE_APPROVE_FOR_ALL');
    }
    for (const serial of serials) {
      ensure(serial > 0n && ledger.nft(token.num, serial), 'INVALID_TOKEN_NFT_SERIAL_NUMBER');
    }
    // The node checks ownership as it sets each serial's spender, after the validator: the treasury owns a serial
    // no one else holds.
    for (const serial of serials) {
      const nft = ledger.nft(token.num, serial);
      ensure(nft && !nft.deleted && nft.owner === owner.num, 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
    }
    const key = `${owner.num}/${spender}/${token.num}`;
    changes.push(() => {
      if (forAll === true) {
        ledger.nftApprovalsForAll.add(key);
        ledger.allowanceKeys.add(`n:${key}`);
      } else if (forAll === false) {
        ledger.nftApprovalsForAll.delete(key);
        ledger.allowanceKeys.delete(`n:${key}`);
      }
    });
    if (forAll !== undefined) {
      after.set(`n:${key}`, forAll);
      grown.add(owner.num);
    }
    changes.push(() => {
      for (const serial of serials) {
        const nft = ledger.nft(token.num, serial);
        if (nft) nft.spender = spender;
      }
    });
  }
  checkAccountCaps(ledger, grown, after);
  return changes;
}

export const deleteAllowance: TxHandler = {
  price: () => ({ kind: 'deleteAllowance' }),
  pure: (data) => ensure(list(data.nftAllowances).length > 0, 'EMPTY_ALLOWANCES'),
  handle: ({ net, data, payer }) => {
    const { ledger } = net;
    const owners = new Map<bigint, LedgerKey | undefined>();
    const cleared: { token: bigint; serial: bigint }[] = [];
    for (const allowance of list(data.nftAllowances)) {
      const token = liveToken(ledger, allowance.token_id);
      const owner = ownerOf(ledger, allowance.owner, payer);
      if (owner.num !== payer) owners.set(owner.num, owner.key);
      for (const serial of list(allowance.serial_numbers).map(bigOf)) {
        const nft = ledger.nft(token.num, serial);
        ensure(nft && !nft.deleted, 'INVALID_TOKEN_NFT_SERIAL_NUMBER');
        ensure(nft.owner === owner.num, 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
        cleared.push({ token: token.num, serial });
      }
    }
    return {
      requiredKeys: [...owners.values()].filter((k): k is LedgerKey => k !== undefined),
      execute: () => {
        for (const { token, serial } of cleared) {
          const nft = ledger.nft(token, serial);
          if (nft) nft.spender = 0n;
        }
        return {};
      },
    };
  },
};
