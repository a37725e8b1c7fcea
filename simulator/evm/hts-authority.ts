/**
 * Whether a system call may act, as the consensus node decides it for a contract: a contract carries no signatures,
 * so the only keys it satisfies are those naming its own contract id (a ContractID or DelegatableContractID key, or a
 * key list or threshold key such keys satisfy). It acts for its own account and for accounts or tokens whose key it
 * satisfies; the simulator's managed tokens name their contract as `manager`. Units debited from an account the
 * contract cannot act for spend an allowance (hts-allowances.ts); hbar and NFTs so debited answer
 * SPENDER_DOES_NOT_HAVE_ALLOWANCE (this network keeps no such approvals for contracts).
 */
import type { Ledger, LedgerKey, Token, TokenSettings } from '../ledger/ledger.ts';
import {
  accountArg,
  accountOf,
  argNum,
  CallFailure,
  cryptoTransferArg,
  INVALID_TOKEN_ID,
  nftMovesArg,
} from './hts-arguments.ts';
import { readCreation } from './hts-create.ts';
import type { HtsOperation } from './hts-functions.ts';

export const INVALID_SIGNATURE = 7;
export const SPENDER_DOES_NOT_HAVE_ALLOWANCE = 292;
const TOKEN_WAS_DELETED = 179;

/** The token key each token operation needs, and the node's code for a token without it. */
const TOKEN_KEYS: Partial<Record<HtsOperation, { key: keyof TokenSettings; missing: number }>> = {
  mintToken: { key: 'supplyKey', missing: 180 },
  burnToken: { key: 'supplyKey', missing: 180 },
  wipeTokenAccount: { key: 'wipeKey', missing: 181 },
  wipeTokenAccountNFT: { key: 'wipeKey', missing: 181 },
  // TOKEN_IS_IMMUTABLE: a token without an admin key cannot be deleted.
  deleteToken: { key: 'adminKey', missing: 193 },
  pauseToken: { key: 'pauseKey', missing: 266 },
  unpauseToken: { key: 'pauseKey', missing: 266 },
  freezeToken: { key: 'freezeKey', missing: 172 },
  unfreezeToken: { key: 'freezeKey', missing: 172 },
  grantTokenKyc: { key: 'kycKey', missing: 177 },
  revokeTokenKyc: { key: 'kycKey', missing: 177 },
};

/** Whether `contract`, calling, satisfies `key` (it can sign for nothing else). */
export function contractSatisfies(key: LedgerKey | undefined, contract: bigint): boolean {
  if (!key) return false;
  switch (key.kind) {
    case 'contract':
    case 'delegatableContract':
      return key.contract === contract;
    case 'list': {
      if (key.keys.length === 0) return false;
      const needed = key.threshold ?? key.keys.length;
      return key.keys.filter((member) => contractSatisfies(member, contract)).length >= needed;
    }
    default:
      return false;
  }
}

/** Whether `caller` acts for `account`: its own, or one whose key names it. */
export function actsFor(ledger: Ledger, account: bigint, caller: bigint): boolean {
  return account === caller || contractSatisfies(ledger.accounts.get(account)?.key, caller);
}

/** The token an operation changes, live: INVALID_TOKEN_ID for none, TOKEN_WAS_DELETED for a deleted one. */
export function liveToken(ledger: Ledger, num: bigint): Token {
  const token = ledger.tokens.get(num);
  if (!token) throw new CallFailure(INVALID_TOKEN_ID, `0.0.${num} is no token`);
  if (token.deleted) throw new CallFailure(TOKEN_WAS_DELETED, `0.0.${num} was deleted`);
  return token;
}

/**
 * The code that stops `caller`'s call for want of authority, or undefined when it may act. A token operation whose
 * token lacks the key answers the node's TOKEN_HAS_NO_…_KEY.
 */
export function authorityFailure(
  ledger: Ledger,
  operation: HtsOperation,
  data: Uint8Array,
  caller: bigint,
): number | undefined {
  const debits = (accounts: Iterable<bigint>) =>
    [...accounts].every((account) => actsFor(ledger, account, caller)) ? undefined : SPENDER_DOES_NOT_HAVE_ALLOWANCE;
  const acting = (account: bigint) => (actsFor(ledger, account, caller) ? undefined : INVALID_SIGNATURE);
  switch (operation) {
    case 'transferToken':
    case 'transferFrom':
    case 'transferTokens':
      // Units spend an allowance where the contract cannot act for the account (hts-allowances.ts).
      return undefined;
    case 'cryptoTransferV2':
      return debits(
        cryptoTransferArg(ledger, data)
          .hbar.filter((a) => a.amount < 0n)
          .map((a) => a.account),
      );
    case 'transferNFT':
    case 'transferNFTs':
      return debits(nftMovesArg(ledger, operation, data).moves.map((move) => move.from));
    case 'approve':
      return undefined;
    case 'associateToken':
    case 'dissociateToken':
      return acting(accountArg(ledger, data, 0));
    case 'createFungibleToken':
      return acting(accountOf(ledger, readCreation(data, 'FUNGIBLE_COMMON').treasury));
    case 'createNonFungibleToken':
      return acting(accountOf(ledger, readCreation(data, 'NON_FUNGIBLE_UNIQUE').treasury));
    default: {
      const token = liveToken(ledger, argNum(data, 0));
      if (token.manager === caller) return undefined;
      const needed = TOKEN_KEYS[operation];
      if (!needed) return INVALID_SIGNATURE;
      const key = token.settings?.[needed.key] as LedgerKey | undefined;
      if (!key) return needed.missing;
      return contractSatisfies(key, caller) ? undefined : INVALID_SIGNATURE;
    }
  }
}
