/**
 * Allowances: owners approve spenders for hbar, fungible units, single NFTs or whole collections; spenders
 * then move the owner's assets in transfers flagged `is_approval`; owners withdraw NFT approvals.
 * Allowance keys in the ledger pool: `c:owner/spender`, `t:owner/spender/token`, `s:owner/spender/token/serial`
 * (one NFT) and `n:owner/spender/token` (approved for all).
 */
import { accountPb, i64, tokenPb } from '../ledger/ids.ts';
import type { Network, Outcome } from '../network/network.ts';
import { HbarTransfers, TokenTransfers } from '../network/transfers.ts';
import { HBAR, otherUser, payerWith } from './pick.ts';
import { applyTokenTransfers } from './tokens.ts';

export async function approve(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const owner = payerWith(net, 20n * HBAR);
  const spender = owner && otherUser(net, owner.num);
  if (!owner || !spender) return false;
  const held = [...owner.tokens].filter((t) => ledger.tokenBalance(owner.num, t) > 0n);
  const token = held.length > 0 && random.chance(0.5) ? ledger.tokens.get(random.pick(held)) : undefined;
  const pair = `${owner.num}/${spender.num}`;
  let body: Record<string, unknown>;
  let apply: () => void;
  if (!token) {
    const amount = random.bigint(1n, 500n) * HBAR;
    body = {
      cryptoAllowances: [{ owner: accountPb(owner.num), spender: accountPb(spender.num), amount: i64(amount) }],
    };
    apply = () => {
      ledger.cryptoAllowances.set(pair, amount);
      ledger.allowanceKeys.add(`c:${pair}`);
    };
  } else if (token.type === 'FUNGIBLE_COMMON') {
    const amount = random.bigint(1n, ledger.tokenBalance(owner.num, token.num));
    body = {
      tokenAllowances: [
        {
          tokenId: tokenPb(token.num),
          owner: accountPb(owner.num),
          spender: accountPb(spender.num),
          amount: i64(amount),
        },
      ],
    };
    apply = () => {
      ledger.tokenAllowances.set(`${pair}/${token.num}`, amount);
      ledger.allowanceKeys.add(`t:${pair}/${token.num}`);
    };
  } else {
    const forAll = random.chance(0.3);
    const serials = forAll ? [] : ledger.nftsOwnedBy(owner.num, token.num, random.int(1, 3));
    if (!forAll && serials.length === 0) return false;
    body = {
      nftAllowances: [
        {
          tokenId: tokenPb(token.num),
          owner: accountPb(owner.num),
          spender: accountPb(spender.num),
          ...(forAll ? { approved_for_all: { value: true } } : { serial_numbers: serials.map(String) }),
        },
      ],
    };
    apply = () => {
      if (forAll) {
        ledger.nftApprovalsForAll.add(`${pair}/${token.num}`);
        ledger.allowanceKeys.add(`n:${pair}/${token.num}`);
      }
      for (const serial of serials) {
        const nft = ledger.nft(token.num, serial);
        if (nft) nft.spender = spender.num;
        ledger.allowanceKeys.add(`s:${pair}/${token.num}/${serial}`);
      }
    };
  }
  await net.submit({
    payer: owner.num,
    body: { cryptoApproveAllowance: body },
    price: 'approveAllowance',
    execute: () => {
      apply();
      return {};
    },
  });
  return true;
}

/** A spender uses an allowance; stale ones (spent, or the NFT moved on) are dropped from the pool instead. */
export async function spendAllowance(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const key = ledger.allowanceKeys.pick(random);
  if (!key) return false;
  const [kind, rest = ''] = key.split(':');
  const [owner = 0n, spender = 0n, token = 0n, serialPart] = rest.split('/').map(BigInt);
  const spenderAccount = ledger.account(spender);
  const ownerAccount = ledger.account(owner);
  if (spenderAccount.deleted || ownerAccount.deleted || spenderAccount.balance < 5n * HBAR) return false;
  let hbar: HbarTransfers | undefined;
  let tokens: TokenTransfers | undefined;
  let settle: () => void;
  if (kind === 'c') {
    const left = ledger.cryptoAllowances.get(`${owner}/${spender}`) ?? 0n;
    if (left === 0n) return false;
    const amount = random.bigint(1n, left);
    if (ownerAccount.balance - amount < 10n * HBAR) return false;
    hbar = new HbarTransfers().add(owner, -amount).add(spender, amount);
    settle = () => settleAmount(net, ledger.cryptoAllowances, `${owner}/${spender}`, key, amount);
  } else if (kind === 't') {
    const left = ledger.tokenAllowances.get(`${owner}/${spender}/${token}`) ?? 0n;
    const available = ledger.tokenBalance(owner, token);
    // Nothing to draw from: an empty range has no amount (and the draw would divide by zero).
    if (left === 0n || available === 0n) return drop(net, key, kind === 't');
    const amount = random.bigint(1n, left < available ? left : available);
    if (!ledger.isAssociated(spender, token)) return drop(net, key, kind === 't');
    tokens = new TokenTransfers().add(token, owner, -amount, true).add(token, spender, amount);
    settle = () => settleAmount(net, ledger.tokenAllowances, `${owner}/${spender}/${token}`, key, amount);
  } else {
    const owned = kind === 's' ? [serialPart ?? 0n] : ledger.nftsOwnedBy(owner, token, 5);
    if (owned.length === 0) return false;
    const serial = random.pick(owned);
    const nft = ledger.nft(token, serial);
    const allowed = kind === 'n' || nft?.spender === spender;
    if (!nft || nft.deleted || nft.owner !== owner || !allowed) return drop(net, key, kind === 's');
    if (!ledger.isAssociated(spender, token)) return false;
    tokens = new TokenTransfers().nft(token, { serial, from: owner, to: spender, approval: true });
    settle = () => {
      if (kind === 's') ledger.allowanceKeys.delete(key);
    };
  }
  const approvals = new Set([owner]);
  const bodyHbar = hbar?.toPb(approvals);
  await net.submit({
    payer: spender,
    body: {
      cryptoTransfer: {
        ...(bodyHbar ? { transfers: { accountAmounts: bodyHbar } } : {}),
        ...(tokens ? { tokenTransfers: tokens.toPb() } : {}),
      },
    },
    price: tokens ? 'tokenTransfer' : 'cryptoTransfer',
    execute: (): Outcome => {
      if (tokens) applyTokenTransfers(net, tokens);
      settle();
      return { ...(hbar ? { transfers: hbar, approvals } : {}), ...(tokens ? { tokens } : {}) };
    },
  });
  return true;
}

function settleAmount(net: Network, map: Map<string, bigint>, mapKey: string, poolKey: string, spent: bigint): void {
  const left = (map.get(mapKey) ?? 0n) - spent;
  if (left > 0n) map.set(mapKey, left);
  else {
    map.delete(mapKey);
    net.ledger.allowanceKeys.delete(poolKey);
  }
}

function drop(net: Network, key: string, stale: boolean): false {
  if (stale) net.ledger.allowanceKeys.delete(key);
  return false;
}

/** An owner withdraws the approval of single NFTs it still holds. */
export async function deleteNftAllowance(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const key = ledger.allowanceKeys.find(random, (k) => k.startsWith('s:'));
  if (!key) return false;
  const [owner = 0n, , token = 0n, serial = 0n] = key.slice(2).split('/').map(BigInt);
  const nft = ledger.nft(token, serial);
  if (!nft || nft.deleted || nft.owner !== owner || ledger.account(owner).balance < 10n * HBAR)
    return drop(net, key, true);
  await net.submit({
    payer: owner,
    body: {
      cryptoDeleteAllowance: {
        nftAllowances: [{ token_id: tokenPb(token), owner: accountPb(owner), serial_numbers: [i64(serial)] }],
      },
    },
    price: 'deleteAllowance',
    execute: () => {
      nft.spender = 0n;
      ledger.allowanceKeys.delete(key);
      return {};
    },
  });
  return true;
}
