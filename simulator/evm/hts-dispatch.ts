/**
 * What a call to the HTS system contract dispatches, decided on the ledger model as the node's handler decides it: the
 * response codes the decisions answer, the dispatch's shape (its body, transfers, receipt and record fields, and the
 * effect with its undo), and the standing checks every transfer makes.
 */
import type { Ledger } from '../ledger/ledger.ts';
import type { HbarTransfers, TokenTransfers } from '../network/transfers.ts';
import { INVALID_TOKEN_ID } from './hts-arguments.ts';

export const INSUFFICIENT_TX_FEE = 9;
export const INSUFFICIENT_ACCOUNT_BALANCE = 28;
export const SUCCESS = 22;
export const ACCOUNT_FROZEN_FOR_TOKEN = 165;
export const TOKEN_WAS_DELETED = 179;
export const TOKEN_HAS_NO_FREEZE_KEY = 172;
export const TOKEN_HAS_NO_KYC_KEY = 177;
export const TREASURY_MUST_OWN_BURNED_NFT = 252;
export const INSUFFICIENT_TOKEN_BALANCE = 178;
export const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
export const TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT = 194;
export const TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES = 195;
export const ACCOUNT_IS_TREASURY = 196;
export const INVALID_TOKEN_BURN_AMOUNT = 183;
export const TOKEN_IS_PAUSED = 265;
export const SENDER_DOES_NOT_OWN_NFT_SERIAL_NO = 237;
export const INVALID_WIPING_AMOUNT = 192;
export const ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN = 176;
export const ACCOUNT_DOES_NOT_OWN_WIPED_NFT = 253;

export interface Dispatch {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly tokens?: TokenTransfers;
  readonly hbar?: HbarTransfers;
  /** The output's words after the response code (a mint's and a burn's new total supply). */
  readonly words?: readonly Uint8Array[];
  /** The child record's receipt fields. */
  readonly receipt?: Record<string, unknown>;
  readonly record?: Record<string, unknown>;
  readonly fee?: bigint;
  /** Applies the dispatch to the ledger and answers what puts the ledger back (for a frame that reverts). */
  readonly effect?: () => Undo;
}

export type Undo = () => void;

/**
 * Whether each account may take part in a transfer of its token, checked as the node's transfer steps check them:
 * the token (exists, not deleted, not paused), then the accounts' relationships (associated, not frozen, KYC granted
 * when the token has a KYC key). Undefined when all may; the balances are checked after.
 */
export function standing(ledger: Ledger, parties: readonly { token: bigint; account: bigint }[]): number | undefined {
  for (const { token: num } of parties) {
    const token = ledger.tokens.get(num);
    if (!token) return INVALID_TOKEN_ID;
    if (token.deleted) return TOKEN_WAS_DELETED;
    if (token.paused) return TOKEN_IS_PAUSED;
  }
  if (parties.some(({ token, account }) => !ledger.tokenBalances.has(`${account}/${token}`))) {
    return TOKEN_NOT_ASSOCIATED_TO_ACCOUNT;
  }
  for (const { token: num, account } of parties) {
    const token = ledger.tokens.get(num);
    if (token?.frozen?.has(account)) return ACCOUNT_FROZEN_FOR_TOKEN;
    if (token?.kycGranted && !token.kycGranted.has(account)) return ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN;
  }
  return undefined;
}
