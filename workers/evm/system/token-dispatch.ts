/**
 * A system contract function that dispatches one synthetic HAPI transaction and answers its response code
 * (DispatchForResponseCodeHtsCall): its writes to the run's token ledger stay on success and are undone on a
 * failure, which a check reports by throwing `DispatchFailure` (`fail`). Also the checks such dispatches share: a
 * live token, an existing account, an active token or account key (INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE, the
 * node's standardized INVALID_SIGNATURE, when it is not), an association.
 */
import type { ExecResult } from '@ethereumjs/evm';
import type { EvmEntity } from '../types.ts';
import { type AbiValue, encode, int } from './abi.ts';
import { partiesOf, signs } from './call-parties.ts';
import { accountAt, type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { canonicalGas, type DispatchType } from './hts-gas.ts';
import { keySatisfied } from './key-checks.ts';
import { type ResponseCodeName, responseCode, success } from './results.ts';
import type { TokenState } from './token-state.ts';

export class DispatchFailure extends Error {
  readonly status: ResponseCodeName;
  constructor(status: ResponseCodeName) {
    super(status);
    this.status = status;
  }
}

export const fail = (status: ResponseCodeName): never => {
  throw new DispatchFailure(status);
};

/** TokenState.keys order. */
const KEY = { admin: 0, kyc: 1, freeze: 2, wipe: 3, supply: 4, pause: 6 } as const;
const MISSING_KEY: Record<keyof typeof KEY, ResponseCodeName> = {
  admin: 'TOKEN_IS_IMMUTABLE',
  kyc: 'TOKEN_HAS_NO_KYC_KEY',
  freeze: 'TOKEN_HAS_NO_FREEZE_KEY',
  wipe: 'TOKEN_HAS_NO_WIPE_KEY',
  supply: 'TOKEN_HAS_NO_SUPPLY_KEY',
  pause: 'TOKEN_HAS_NO_PAUSE_KEY',
};

export async function liveToken(call: HtsCall, address: Uint8Array): Promise<TokenState> {
  const token = await tokenAt(call, address);
  if (!token) return fail('INVALID_TOKEN_ID');
  if (token.deleted) fail('TOKEN_WAS_DELETED');
  return token;
}

/** The token's `kind` key must exist and be active for the call. */
export async function requireKey(call: HtsCall, token: TokenState, kind: keyof typeof KEY): Promise<void> {
  const key = token.keyBytes[KEY[kind]];
  if (!key) fail(MISSING_KEY[kind]);
  if (!keySatisfied(key, (await partiesOf(call)).signers)) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
}

export async function existingAccount(call: HtsCall, address: Uint8Array): Promise<EvmEntity> {
  const account = await accountAt(call, address);
  if (!account || account.deleted) return fail('INVALID_ACCOUNT_ID');
  return account;
}

/** An account acting for itself: the sender, or one whose key is active for the call. */
export async function requireAccountKey(call: HtsCall, account: EvmEntity): Promise<void> {
  if (!(await signs(call, account))) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
}

export async function associatedRow(call: HtsCall, account: EvmEntity, token: TokenState) {
  const row = await call.tokens.relationshipToWrite(account.id, token);
  if (!row?.associated) return fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  return row;
}

/**
 * Runs `apply` as one dispatch: its writes stay on success and are undone on a failure, whose status it answers.
 * `output` encodes the outputs after the response code.
 */
export function dispatch(
  type: (call: HtsCall) => Promise<DispatchType> | DispatchType,
  apply: (call: HtsCall) => Promise<AbiValue[] | undefined>,
  failedOutputs: AbiValue[] = [],
): HtsFunction {
  return pricedDispatch(async (call) => canonicalGas(await type(call)), apply, failedOutputs);
}

/** `dispatch` for a function whose gas is not one dispatch type's price. */
export function pricedDispatch(
  gasOf: (call: HtsCall) => Promise<bigint> | bigint,
  apply: (call: HtsCall) => Promise<AbiValue[] | undefined>,
  failedOutputs: AbiValue[] = [],
): HtsFunction {
  return async (call): Promise<ExecResult> => {
    const gas = await gasOf(call);
    call.tokens.checkpoint();
    try {
      const outputs = (await apply(call)) ?? [];
      call.tokens.commit();
      return success(gas, call.gasLimit, encode(int(responseCode('SUCCESS')), ...outputs));
    } catch (error) {
      call.tokens.revert();
      if (!(error instanceof DispatchFailure)) throw error;
      return success(gas, call.gasLimit, encode(int(responseCode(error.status)), ...failedOutputs));
    }
  };
}

export const fixed = (type: DispatchType) => () => type;

/** token_account.freeze_status and kyc_status values. */
const FROZEN = 1;
const KYC_GRANTED = 1;

/** The token checks of the token service's `getIfUsable`: it exists, is not deleted and is not paused. */
export function usableToken(token: TokenState | undefined): TokenState {
  if (!token) return fail('INVALID_TOKEN_ID');
  if (token.deleted) fail('TOKEN_WAS_DELETED');
  if (token.paused) fail('TOKEN_IS_PAUSED');
  return token;
}

/** Moves `amount` of the token into (negative: out of) an account that is associated, unfrozen and KYC'd. */
export async function adjustTokenBalance(
  call: HtsCall,
  accountId: bigint,
  token: TokenState,
  amount: bigint,
): Promise<void> {
  const row = await call.tokens.relationshipToWrite(accountId, token);
  if (!row?.associated) return fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  if (row.freeze_status === FROZEN) fail('ACCOUNT_FROZEN_FOR_TOKEN');
  if (token.hasKycKey && row.kyc_status !== KYC_GRANTED) fail('ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
  const balance = BigInt(row.balance) + amount;
  if (balance < 0n) fail('INSUFFICIENT_TOKEN_BALANCE');
  call.tokens.putRelationship(accountId, token.id, { ...row, balance: String(balance) });
}
