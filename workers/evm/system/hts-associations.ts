/**
 * Token associations on HTS 0x167 (`associateToken(s)`, `dissociateToken(s)`) and HRC-719's `associate()` and
 * `dissociate()` through a token's redirect: TokenAssociate and TokenDissociate dispatches, each for an account that
 * is the sender or whose key is active.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { longZeroAddress } from '../addresses.ts';
import { type AbiArgs, selectorOf } from './abi.ts';
import { newRelationship } from './crypto-transfer.ts';
import { bodyGas } from './dispatch-gas.ts';
import { dissociateUsage } from './hapi-fee-usage.ts';
import { accountAt, type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import {
  associatedRow,
  dispatch,
  existingAccount,
  fail,
  fixed,
  liveToken,
  pricedDispatch,
  requireAccountKey,
} from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';

const FROZEN = 1;

async function associate(call: HtsCall, accountAddress: Uint8Array, tokenAddresses: Uint8Array[]) {
  const account = await existingAccount(call, accountAddress);
  const tokens = await Promise.all(tokenAddresses.map((address) => liveToken(call, address)));
  if (new Set(tokens.map((token) => token.id)).size !== tokens.length) fail('TOKEN_ID_REPEATED_IN_TOKEN_LIST');
  await requireAccountKey(call, account);
  for (const token of tokens) {
    if ((await call.tokens.relationship(account.id, token.id))?.associated) fail('TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT');
    call.tokens.putRelationship(account.id, token.id, newRelationship(token, true));
  }
  return undefined;
}

async function dissociate(call: HtsCall, accountAddress: Uint8Array, tokenAddresses: Uint8Array[]) {
  const account = await existingAccount(call, accountAddress);
  const tokens = await Promise.all(
    tokenAddresses.map(async (address) => (await tokenAt(call, address)) ?? fail('INVALID_TOKEN_ID')),
  );
  if (new Set(tokens.map((token) => token.id)).size !== tokens.length) fail('TOKEN_ID_REPEATED_IN_TOKEN_LIST');
  await requireAccountKey(call, account);
  for (const token of tokens) {
    const row = await associatedRow(call, account, token);
    if (!token.deleted) {
      if (token.treasury === account.id) fail('ACCOUNT_IS_TREASURY');
      if (row.freeze_status === FROZEN) fail('ACCOUNT_FROZEN_FOR_TOKEN');
      if (BigInt(row.balance) !== 0n) fail('TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES');
    }
    call.tokens.putRelationship(account.id, token.id, undefined);
  }
  return undefined;
}

/** TokenDissociate's body prices by its tokens, or by the constants alone when its account does not exist. */
const dissociateGas =
  (account: (call: HtsCall) => Uint8Array, tokens: number | ((call: HtsCall) => number)) =>
  async (call: HtsCall): Promise<bigint> => {
    const count = typeof tokens === 'number' ? tokens : tokens(call);
    const exists = (await accountAt(call, account(call))) !== undefined;
    return bodyGas(call, 'DISSOCIATE', dissociateUsage(count, exists));
  };

const addressList = (args: AbiArgs, index: number): Uint8Array[] => {
  const list = args.array(index);
  return Array.from({ length: list.length }, (_, i) => list.items.address(i));
};

export const ASSOCIATION_FUNCTIONS: [string, HtsFunction][] = [
  [
    'associateToken(address,address)',
    dispatch(fixed('ASSOCIATE'), (call) => associate(call, call.args.address(0), [call.args.address(1)])),
  ],
  [
    'associateTokens(address,address[])',
    dispatch(fixed('ASSOCIATE'), (call) => associate(call, call.args.address(0), addressList(call.args, 1))),
  ],
  [
    'dissociateToken(address,address)',
    pricedDispatch(
      dissociateGas((call) => call.args.address(0), 1),
      (call) => dissociate(call, call.args.address(0), [call.args.address(1)]),
    ),
  ],
  [
    'dissociateTokens(address,address[])',
    pricedDispatch(
      dissociateGas(
        (call) => call.args.address(0),
        (call) => call.args.array(1).length,
      ),
      (call) => dissociate(call, call.args.address(0), addressList(call.args, 1)),
    ),
  ],
];

/** HRC-719 `associate()` and `dissociate()` through a token's redirect: the sender and the redirect's token. */
export const HRC_WRITES: ReadonlyMap<number, (call: HtsCall, token: TokenState) => Promise<ExecResult>> = new Map([
  [
    selectorOf('associate()'),
    (call: HtsCall, token: TokenState) =>
      dispatch(fixed('ASSOCIATE'), (c) => associate(c, c.sender, [longZeroAddress(token.id)]))(call),
  ],
  [
    selectorOf('dissociate()'),
    (call: HtsCall, token: TokenState) =>
      pricedDispatch(
        dissociateGas((c) => c.sender, 1),
        (c) => dissociate(c, c.sender, [longZeroAddress(token.id)]),
      )(call),
  ],
]);
