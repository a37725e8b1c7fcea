/**
 * CryptoTransfer submitted to a node: hbar, fungible units and NFTs in one transaction. Every debited account signs
 * (a debit the payer makes from an allowance, `is_approval`, spends the allowance instead), a receiver that asked
 * for it signs too; a receiver not associated with a token takes a free automatic association slot or fails. Tokens
 * with custom fees charge them (custom-fee-charging.ts), listed in the record's `assessed_custom_fees`. A credit to
 * an alias no account has creates the account (auto-create.ts), and the payer pays for the creation.
 */
import { accountPb, tokenPb } from '../../ledger/ids.ts';
import type { Account, Ledger, LedgerKey, Token } from '../../ledger/ledger.ts';
import { PRICE_TINYCENTS, tinybarsOf } from '../../network/fees.ts';
import { HbarTransfers, TokenTransfers } from '../../network/transfers.ts';
import { bigOf, ensure, Failed, type Pb, type TxHandler } from '../handling.ts';
import { AutoCreator } from './auto-create.ts';
import { assessCustomFees } from './custom-fee-charging.ts';
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
    const creator = new AutoCreator(ledger);
    // What needs the accounts' state fails only after the signatures are checked, as on the node (its handle step
    // follows the pre-handle that names the keys): a transfer from an account that did not sign is INVALID_SIGNATURE
    // whatever it holds.
    // Within that step the node's order holds: the tokens and their recipients (usable, associated, unfrozen), then
    // NFT ownership, then hbar and then token balances and allowances.
    const failures: { phase: Phase; failure: Failed }[] = [];
    const check = (condition: unknown, status: string, phase: Phase) => {
      if (!condition) failures.push({ phase, failure: new Failed(status) });
    };
    /** An approved debit: the payer must have an allowance from the owner, and enough of it. */
    const spendable = (allowance: bigint | undefined, amount: bigint, phase: Phase) => {
      check(allowance !== undefined, 'SPENDER_DOES_NOT_HAVE_ALLOWANCE', phase);
      if (allowance !== undefined) check(allowance >= amount, 'AMOUNT_EXCEEDS_ALLOWANCE', phase);
    };
    const required = new Map<bigint, LedgerKey | undefined>();
    const needSignature = (account: Account) => required.set(account.num, account.key);
    const credit = (account: Account) => {
      if (account.receiverSigRequired) needSignature(account);
    };
    const hbar = new HbarTransfers();
    const approvals = new Set<bigint>();
    for (const entry of hbarAmounts(data)) {
      const amount = bigOf(entry.amount);
      const account = creator.resolve(entry.accountID, amount > 0n);
      hbar.add(account.num, amount);
      if (amount >= 0n) {
        credit(account);
        continue;
      }
      const reserve = account.num === payer ? fee : 0n;
      if (entry.is_approval) {
        spendable(ledger.cryptoAllowances.get(`${account.num}/${payer}`), -amount, Phase.Hbar);
        approvals.add(account.num);
      } else needSignature(account);
      check(account.balance - reserve + amount >= 0n, 'INSUFFICIENT_ACCOUNT_BALANCE', Phase.Hbar);
    }
    const tokens = new TokenTransfers();
    const tokenSpends: [string, bigint][] = [];
    const associations: Pb[] = [];
    const newAssociations: [Account, Token][] = [];
    for (const tokenList of list(data.tokenTransfers)) {
      const token = liveToken(ledger, tokenList.token);
      check(!token.paused, 'TOKEN_IS_PAUSED', Phase.Recipients);
      const expected = tokenList.expected_decimals as Pb | undefined;
      if (expected && expected.value !== undefined)
        check(Number(expected.value) === token.decimals, 'UNEXPECTED_TOKEN_DECIMALS', Phase.Recipients);
      /** A recipient's relationship is checked (or made) first; a sender's with its debit (`phase`). */
      const touch = (account: Account, receiving: boolean, phase: Phase = Phase.Recipients) => {
        if (!ledger.isAssociated(account.num, token.num)) {
          check(receiving && account.maxAutoAssociations !== 0, 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT', phase);
          check(ledger.freeAutoAssociations(account) > 0, 'NO_REMAINING_AUTOMATIC_ASSOCIATIONS', phase);
          newAssociations.push([account, token]);
          associations.push({ token_id: tokenPb(token.num), account_id: accountPb(account.num) });
        }
        check(!token.frozen?.has(account.num), 'ACCOUNT_FROZEN_FOR_TOKEN', phase);
        if (token.settings?.kycKey)
          check(token.kycGranted?.has(account.num), 'ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN', phase);
      };
      if (list(tokenList.transfers).length > 0) {
        ensure(token.type === 'FUNGIBLE_COMMON', 'ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON');
      }
      for (const entry of list(tokenList.transfers)) {
        const amount = bigOf(entry.amount);
        const account = creator.resolve(entry.accountID, amount > 0n);
        if (amount < 0n) {
          if (entry.is_approval) {
            const key = `${account.num}/${payer}/${token.num}`;
            spendable(ledger.tokenAllowances.get(key), -amount, Phase.Tokens);
            tokenSpends.push([key, -amount]);
          } else needSignature(account);
          touch(account, false, Phase.Tokens);
          check(ledger.tokenBalance(account.num, token.num) + amount >= 0n, 'INSUFFICIENT_TOKEN_BALANCE', Phase.Tokens);
        } else {
          touch(account, true);
          credit(account);
        }
        tokens.add(token.num, account.num, amount);
      }
      for (const move of list(tokenList.nftTransfers)) {
        ensure(token.type === 'NON_FUNGIBLE_UNIQUE', 'INVALID_NFT_ID');
        const from = liveAccount(ledger, move.senderAccountID);
        const to = creator.resolve(move.receiverAccountID, true);
        const serial = bigOf(move.serialNumber);
        const nft = ledger.nft(token.num, serial);
        ensure(nft && !nft.deleted, 'INVALID_NFT_ID');
        check(nft.owner === from.num, 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO', Phase.Nfts);
        touch(from, false, Phase.Nfts);
        touch(to, true);
        // A receiver who may owe a royalty's fallback fee signs for it, unless it is the treasury (exempt).
        const fallback = token.settings?.customFees?.some((fee) => fee.royalty?.fallback);
        if (fallback && to.num !== token.treasury) needSignature(to);
        if (move.is_approval) {
          const approved = nft.spender === payer || ledger.nftApprovalsForAll.has(`${from.num}/${payer}/${token.num}`);
          check(approved, 'SPENDER_DOES_NOT_HAVE_ALLOWANCE', Phase.Nfts);
        } else needSignature(from);
        credit(to);
        tokens.nft(token.num, { serial, from: from.num, to: to.num });
      }
    }
    // Each account the transfer creates costs a CryptoCreate, charged to the payer with the transfer's own fee (the
    // node folds the creation's fee into the transfer's record; the CryptoCreate child shows none).
    const creationFee = BigInt(creator.count) * tinybarsOf(PRICE_TINYCENTS.cryptoCreate, ledger.exchangeRate);
    if (creationFee > 0n) {
      const left = ledger.account(payer).balance - fee - creationFee + (hbar.amounts.get(payer) ?? 0n);
      check(left >= 0n, 'INSUFFICIENT_PAYER_BALANCE', Phase.Hbar);
    }
    const fees = failures.length > 0 ? noFees(hbar, tokens) : charged(ledger, payer, fee, hbar, tokens, failures);
    return {
      requiredKeys: [...required.values()].filter((k): k is LedgerKey => k !== undefined),
      children: () => creator.children,
      execute: async (ctx) => {
        const [first] = failures.sort((a, b) => a.phase - b.phase);
        if (first) throw first.failure;
        creator.create(ctx.consensusNs);
        for (const [account, token] of newAssociations) ledger.autoAssociate(account.num, token.num);
        for (const [token, account, amount] of fees.tokens.fungibleDeltas())
          ledger.addTokenBalance(account, token, amount);
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
        await creator.writeChildren(net, ctx, payer);
        return {
          ...(creationFee > 0n ? { fee: fee + creationFee } : {}),
          transfers: fees.hbar,
          approvals,
          tokens: fees.tokens,
          record: {
            ...(fees.assessed.length > 0 ? { assessed_custom_fees: fees.assessed } : {}),
            ...(associations.length > 0 ? { automatic_token_associations: associations } : {}),
          },
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

/** The order of the node's transfer steps that can fail once the signatures are checked. */
const Phase = { Recipients: 0, Nfts: 1, Hbar: 2, Tokens: 3, CustomFees: 4 } as const;
type Phase = (typeof Phase)[keyof typeof Phase];

const noFees = (hbar: HbarTransfers, tokens: TokenTransfers) => ({ hbar, tokens, assessed: [] as Pb[] });

/** The transfer with its custom fees, or without them and a failure noted when charging them fails. */
function charged(
  ledger: Ledger,
  payer: bigint,
  fee: bigint,
  hbar: HbarTransfers,
  tokens: TokenTransfers,
  failures: { phase: Phase; failure: Failed }[],
) {
  try {
    return withCustomFees(ledger, payer, fee, hbar, tokens);
  } catch (error) {
    if (!(error instanceof Failed)) throw error;
    failures.push({ phase: Phase.CustomFees, failure: error });
    return noFees(hbar, tokens);
  }
}

/**
 * The transfer with its custom fees charged (custom-fee-charging.ts): the hbar and token lists the record shows and
 * the ledger applies, checked so that no one pays more than they hold (the transaction fee kept back for the payer).
 */
function withCustomFees(ledger: Ledger, payer: bigint, fee: bigint, hbar: HbarTransfers, tokens: TokenTransfers) {
  const units = new Map<bigint, Map<bigint, bigint>>();
  for (const [token, account, amount] of tokens.fungibleDeltas()) {
    const map = units.get(token) ?? new Map<bigint, bigint>();
    map.set(account, amount);
    units.set(token, map);
  }
  const assessment = assessCustomFees(ledger, { hbar: hbar.netted(), units }, tokens.nftMoves());
  if (!assessment.charged) return noFees(hbar, tokens);
  const charged = new HbarTransfers();
  for (const [account, amount] of assessment.changes.hbar) {
    charged.add(account, amount);
    if (amount >= 0n) continue;
    const holds = (ledger.accounts.get(account)?.balance ?? 0n) - (account === payer ? fee : 0n);
    ensure(holds + amount >= 0n, 'INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
  }
  const all = new TokenTransfers();
  for (const [token, map] of assessment.changes.units) {
    for (const [account, amount] of map) {
      if (amount < 0n)
        ensure(
          ledger.tokenBalance(account, token) + amount >= 0n,
          'INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE',
        );
      all.add(token, account, amount);
    }
  }
  for (const [token, move] of tokens.nftMoves()) all.nft(token, move);
  return { hbar: charged, tokens: all, assessed: assessment.assessed };
}
