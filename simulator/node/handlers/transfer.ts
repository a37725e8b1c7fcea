/**
 * CryptoTransfer submitted to a node: hbar, fungible units and NFTs in one transaction. Every debited account signs
 * (a debit the payer makes from an allowance, `is_approval`, spends the allowance instead), a receiver that asked
 * for it signs too; a receiver not associated with a token takes a free automatic association slot or fails.
 */
import { accountPb, tokenPb } from '../../ledger/ids.ts';
import type { Account, Ledger, LedgerKey, Token } from '../../ledger/ledger.ts';
import { HbarTransfers, TokenTransfers } from '../../network/transfers.ts';
import { bigOf, ensure, type Pb, type TxHandler } from '../handling.ts';
import { liveAccount, liveToken } from './lookups.ts';

const list = (value: unknown): Pb[] => (Array.isArray(value) ? (value as Pb[]) : []);

function hbarAmounts(data: Pb): Pb[] {
  return list((data.transfers as Pb | undefined)?.accountAmounts);
}

export const cryptoTransfer: TxHandler = {
  price: (data) => ({ kind: list(data.tokenTransfers).length > 0 ? 'tokenTransfer' : 'cryptoTransfer' }),
  pure: (data) => {
    const amounts = hbarAmounts(data);
    let sum = 0n;
    const seen = new Set<string>();
    for (const entry of amounts) {
      sum += bigOf(entry.amount);
      const id = JSON.stringify(entry.accountID ?? null);
      ensure(!seen.has(id), 'ACCOUNT_REPEATED_IN_ACCOUNT_AMOUNTS');
      seen.add(id);
    }
    ensure(sum === 0n, 'INVALID_ACCOUNT_AMOUNTS');
    for (const tokenList of list(data.tokenTransfers)) {
      ensure(tokenList.token, 'INVALID_TOKEN_ID');
      let tokenSum = 0n;
      for (const entry of list(tokenList.transfers)) tokenSum += bigOf(entry.amount);
      ensure(tokenSum === 0n, 'TRANSFERS_NOT_ZERO_SUM_FOR_TOKEN');
      const fungible = list(tokenList.transfers).length > 0;
      const nfts = list(tokenList.nftTransfers).length > 0;
      ensure(fungible || nfts, 'EMPTY_TOKEN_TRANSFER_ACCOUNT_AMOUNTS');
      ensure(!(fungible && nfts), 'INVALID_ACCOUNT_AMOUNTS');
    }
  },
  handle: ({ net, data, payer, fee }) => {
    const { ledger } = net;
    const required = new Map<bigint, LedgerKey | undefined>();
    const needSignature = (account: Account) => required.set(account.num, account.key);
    const credit = (account: Account) => {
      if (account.receiverSigRequired) needSignature(account);
    };
    const hbar = new HbarTransfers();
    const approvals = new Set<bigint>();
    for (const entry of hbarAmounts(data)) {
      const account = liveAccount(ledger, entry.accountID);
      const amount = bigOf(entry.amount);
      hbar.add(account.num, amount);
      if (amount >= 0n) {
        credit(account);
        continue;
      }
      const reserve = account.num === payer ? fee : 0n;
      ensure(account.balance - reserve + amount >= 0n, 'INSUFFICIENT_ACCOUNT_BALANCE');
      if (entry.is_approval) {
        const allowance = ledger.cryptoAllowances.get(`${account.num}/${payer}`) ?? 0n;
        ensure(allowance >= -amount, 'AMOUNT_EXCEEDS_ALLOWANCE');
        approvals.add(account.num);
      } else needSignature(account);
    }
    const tokens = new TokenTransfers();
    const tokenSpends: [string, bigint][] = [];
    const associations: Pb[] = [];
    const newAssociations: [Account, Token][] = [];
    for (const tokenList of list(data.tokenTransfers)) {
      const token = liveToken(ledger, tokenList.token);
      ensure(!token.paused, 'TOKEN_IS_PAUSED');
      const expected = tokenList.expected_decimals as Pb | undefined;
      if (expected && expected.value !== undefined)
        ensure(Number(expected.value) === token.decimals, 'UNEXPECTED_TOKEN_DECIMALS');
      const touch = (account: Account, receiving: boolean) => {
        if (!ledger.isAssociated(account.num, token.num)) {
          ensure(receiving && account.maxAutoAssociations !== 0, 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
          ensure(ledger.freeAutoAssociations(account) > 0, 'NO_REMAINING_AUTOMATIC_ASSOCIATIONS');
          newAssociations.push([account, token]);
          associations.push({ token_id: tokenPb(token.num), account_id: accountPb(account.num) });
        }
        ensure(!token.frozen?.has(account.num), 'ACCOUNT_FROZEN_FOR_TOKEN');
        if (token.settings?.kycKey) ensure(token.kycGranted?.has(account.num), 'ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
      };
      if (list(tokenList.transfers).length > 0) {
        ensure(token.type === 'FUNGIBLE_COMMON', 'ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON');
      }
      for (const entry of list(tokenList.transfers)) {
        const account = liveAccount(ledger, entry.accountID);
        const amount = bigOf(entry.amount);
        touch(account, amount > 0n);
        if (amount < 0n) {
          ensure(ledger.tokenBalance(account.num, token.num) + amount >= 0n, 'INSUFFICIENT_TOKEN_BALANCE');
          if (entry.is_approval) {
            const key = `${account.num}/${payer}/${token.num}`;
            ensure((ledger.tokenAllowances.get(key) ?? 0n) >= -amount, 'AMOUNT_EXCEEDS_ALLOWANCE');
            tokenSpends.push([key, -amount]);
          } else needSignature(account);
        } else credit(account);
        tokens.add(token.num, account.num, amount);
      }
      for (const move of list(tokenList.nftTransfers)) {
        ensure(token.type === 'NON_FUNGIBLE_UNIQUE', 'INVALID_NFT_ID');
        const from = liveAccount(ledger, move.senderAccountID);
        const to = liveAccount(ledger, move.receiverAccountID);
        const serial = bigOf(move.serialNumber);
        const nft = ledger.nft(token.num, serial);
        ensure(nft && !nft.deleted, 'INVALID_NFT_ID');
        ensure(nft.owner === from.num, 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
        touch(from, false);
        touch(to, true);
        if (move.is_approval) {
          const approved = nft.spender === payer || ledger.nftApprovalsForAll.has(`${from.num}/${payer}/${token.num}`);
          ensure(approved, 'SPENDER_DOES_NOT_HAVE_ALLOWANCE');
        } else needSignature(from);
        credit(to);
        tokens.nft(token.num, { serial, from: from.num, to: to.num });
      }
    }
    return {
      requiredKeys: [...required.values()].filter((k): k is LedgerKey => k !== undefined),
      execute: () => {
        for (const [account, token] of newAssociations) ledger.autoAssociate(account.num, token.num);
        for (const [token, account, amount] of tokens.fungibleDeltas()) ledger.addTokenBalance(account, token, amount);
        for (const [token, move] of tokens.nftMoves()) ledger.moveNft(token, move.serial, move.from, move.to);
        for (const owner of approvals) spendAllowance(ledger, owner, payer, -(hbar.amounts.get(owner) ?? 0n));
        for (const [key, amount] of tokenSpends) {
          const left = (ledger.tokenAllowances.get(key) ?? 0n) - amount;
          if (left > 0n) ledger.tokenAllowances.set(key, left);
          else {
            ledger.tokenAllowances.delete(key);
            ledger.allowanceKeys.delete(`t:${key}`);
          }
        }
        return {
          transfers: hbar,
          approvals,
          tokens,
          ...(associations.length > 0 ? { record: { automatic_token_associations: associations } } : {}),
        };
      },
    };
  },
};

function spendAllowance(ledger: Ledger, owner: bigint, spender: bigint, amount: bigint): void {
  const key = `${owner}/${spender}`;
  const left = (ledger.cryptoAllowances.get(key) ?? 0n) - amount;
  if (left > 0n) ledger.cryptoAllowances.set(key, left);
  else {
    ledger.cryptoAllowances.delete(key);
    ledger.allowanceKeys.delete(`c:${key}`);
  }
}
