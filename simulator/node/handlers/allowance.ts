/**
 * CryptoApproveAllowance and CryptoDeleteAllowance submitted to a node: hbar, fungible token and NFT allowances
 * (single serials or a whole collection) in the ledger model's allowance maps, as the generated load keeps them
 * (mix/allowances.ts). Each owner signs; an owner not named is the payer. An amount of 0 removes an allowance.
 */
import type { Account, Ledger, LedgerKey } from '../../ledger/ledger.ts';
import { accountNumOf } from '../entity-ids.ts';
import { bigOf, ensure, type Pb, type TxHandler, wrapped } from '../handling.ts';
import { liveAccount, liveToken } from './lookups.ts';

const list = (value: unknown): Pb[] => (Array.isArray(value) ? (value as Pb[]) : []);

function ownerOf(ledger: Ledger, id: unknown, payer: bigint): Account {
  return id && accountNumOf(ledger, id) !== 0n
    ? liveAccount(ledger, id, 'INVALID_ALLOWANCE_OWNER_ID')
    : ledger.account(payer);
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

export const approveAllowance: TxHandler = {
  price: () => ({ kind: 'approveAllowance' }),
  pure: (data) => {
    const all = [...list(data.cryptoAllowances), ...list(data.tokenAllowances), ...list(data.nftAllowances)];
    ensure(all.length > 0, 'EMPTY_ALLOWANCES');
    for (const allowance of [...list(data.cryptoAllowances), ...list(data.tokenAllowances)]) {
      ensure(bigOf(allowance.amount) >= 0n, 'NEGATIVE_ALLOWANCE_AMOUNT');
    }
  },
  handle: ({ net, data, payer }) => {
    const { ledger } = net;
    const owners = new Map<bigint, LedgerKey | undefined>();
    const changes: (() => void)[] = [];
    for (const allowance of list(data.cryptoAllowances)) {
      const owner = ownerOf(ledger, allowance.owner, payer);
      const spender = liveAccount(ledger, allowance.spender, 'INVALID_ALLOWANCE_SPENDER_ID');
      ensure(owner.num !== spender.num, 'SPENDER_ACCOUNT_SAME_AS_OWNER');
      owners.set(owner.num, owner.key);
      const pair = `${owner.num}/${spender.num}`;
      changes.push(() => setAllowance(ledger.cryptoAllowances, pair, bigOf(allowance.amount), `c:${pair}`, ledger));
    }
    for (const allowance of list(data.tokenAllowances)) {
      const token = liveToken(ledger, allowance.tokenId);
      ensure(token.type === 'FUNGIBLE_COMMON', 'NFT_IN_FUNGIBLE_TOKEN_ALLOWANCES');
      const owner = ownerOf(ledger, allowance.owner, payer);
      const spender = liveAccount(ledger, allowance.spender, 'INVALID_ALLOWANCE_SPENDER_ID');
      ensure(ledger.isAssociated(owner.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
      owners.set(owner.num, owner.key);
      const key = `${owner.num}/${spender.num}/${token.num}`;
      changes.push(() => setAllowance(ledger.tokenAllowances, key, bigOf(allowance.amount), `t:${key}`, ledger));
    }
    for (const allowance of list(data.nftAllowances)) {
      const token = liveToken(ledger, allowance.tokenId);
      ensure(token.type === 'NON_FUNGIBLE_UNIQUE', 'FUNGIBLE_TOKEN_IN_NFT_ALLOWANCES');
      const owner = ownerOf(ledger, allowance.owner, payer);
      const spender = liveAccount(ledger, allowance.spender, 'INVALID_ALLOWANCE_SPENDER_ID');
      ensure(ledger.isAssociated(owner.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
      owners.set(owner.num, owner.key);
      const serials = list(allowance.serial_numbers).map(bigOf);
      for (const serial of serials) {
        const nft = ledger.nft(token.num, serial);
        ensure(nft && !nft.deleted, 'INVALID_TOKEN_NFT_SERIAL_NUMBER');
        ensure(nft.owner === owner.num, 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
      }
      const forAll = wrapped<boolean>(allowance.approved_for_all);
      const key = `${owner.num}/${spender.num}/${token.num}`;
      changes.push(() => {
        for (const serial of serials) {
          const nft = ledger.nft(token.num, serial);
          if (nft) nft.spender = spender.num;
        }
        if (forAll === true) {
          ledger.nftApprovalsForAll.add(key);
          ledger.allowanceKeys.add(`n:${key}`);
        } else if (forAll === false) {
          ledger.nftApprovalsForAll.delete(key);
          ledger.allowanceKeys.delete(`n:${key}`);
        }
      });
    }
    return {
      requiredKeys: [...owners.values()].filter((k): k is LedgerKey => k !== undefined),
      execute: () => {
        for (const change of changes) change();
        return {};
      },
    };
  },
};

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
      owners.set(owner.num, owner.key);
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
