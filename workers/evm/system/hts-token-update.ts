import { encode, int } from './abi.ts';
import { partiesOf, signs } from './call-parties.ts';
import { accountAt, type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { keySatisfied } from './key-checks.ts';
import { keyValueOf } from './keys.ts';
import { type ResponseCodeName, responseCode, success } from './results.ts';
import { byteLength, expiryValues, MAX_MEMO_BYTES, MAX_NAME_BYTES, MAX_SYMBOL_BYTES } from './token-checks.ts';
import { DispatchFailure, fail } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';
import {
  expiryOf,
  HEDERA_TOKEN_V1,
  HEDERA_TOKEN_V2,
  HEDERA_TOKEN_V3,
  hederaTokenOf,
  isZeroAddress,
  keyBytesFromList,
  type TokenKeyInput,
  tokenKeysOf,
} from './token-structs.ts';

/** A TokenUpdate of the token in argument 0: the admin key must be active; answers its response code. */
function update(apply: (call: HtsCall, token: TokenState) => Promise<TokenState>): HtsFunction {
  return async (call) => {
    const gas = canonicalGas('UPDATE');
    call.tokens.checkpoint();
    try {
      const token = await tokenAt(call, call.args.address(0));
      if (!token) fail('INVALID_TOKEN_ID');
      const current = token as TokenState;
      if (current.deleted) fail('TOKEN_WAS_DELETED');
      if (!current.keyBytes[0]) fail('TOKEN_IS_IMMUTABLE');
      if (!keySatisfied(current.keyBytes[0], (await partiesOf(call)).signers)) {
        fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
      }
      if (current.paused) fail('TOKEN_IS_PAUSED');
      call.tokens.putToken(await apply(call, current));
      call.tokens.commit();
      return success(gas, call.gasLimit, encode(int(responseCode('SUCCESS'))));
    } catch (error) {
      call.tokens.revert();
      if (error instanceof DispatchFailure) return success(gas, call.gasLimit, encode(int(responseCode(error.status))));
      throw error;
    }
  };
}

/** The keys a TokenUpdate sets; a key the token never had cannot be added (TOKEN_HAS_NO_…_KEY). */
async function updatedKeys(call: HtsCall, token: TokenState, list: readonly TokenKeyInput[]) {
  const { sender } = await partiesOf(call);
  const keyBytes = keyBytesFromList(list, token.keyBytes, sender?.key, call.reader.settings);
  const missing: ResponseCodeName[] = [
    'TOKEN_IS_IMMUTABLE',
    'TOKEN_HAS_NO_KYC_KEY',
    'TOKEN_HAS_NO_FREEZE_KEY',
    'TOKEN_HAS_NO_WIPE_KEY',
    'TOKEN_HAS_NO_SUPPLY_KEY',
    'TOKEN_HAS_NO_FEE_SCHEDULE_KEY',
    'TOKEN_HAS_NO_PAUSE_KEY',
  ];
  keyBytes.forEach((key, i) => {
    if (key && !token.keyBytes[i]) fail(missing[i] ?? 'TOKEN_IS_IMMUTABLE');
  });
  return { keyBytes, keys: keyBytes.map((key) => (key === undefined ? undefined : keyValueOf(key))) };
}

export const TOKEN_UPDATE_FUNCTIONS: [string, HtsFunction][] = [
  ...[HEDERA_TOKEN_V1, HEDERA_TOKEN_V2, HEDERA_TOKEN_V3].map((token): [string, HtsFunction] => [
    `updateTokenInfo(address,${token})`,
    update(async (call, current) => {
      const input = hederaTokenOf(call.args, 1);
      let treasury = current.treasury;
      if (!isZeroAddress(input.treasury)) {
        const account = (await accountAt(call, input.treasury)) ?? fail('INVALID_TREASURY_ACCOUNT_FOR_TOKEN');
        if (!(await signs(call, account))) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
        if (!(await call.tokens.relationship(account.id, current.id))?.associated) {
          fail('INVALID_TREASURY_ACCOUNT_FOR_TOKEN');
        }
        treasury = account.id;
      }
      if (byteLength(input.name) > MAX_NAME_BYTES) fail('TOKEN_NAME_TOO_LONG');
      if (byteLength(input.symbol) > MAX_SYMBOL_BYTES) fail('TOKEN_SYMBOL_TOO_LONG');
      if (byteLength(input.memo) > MAX_MEMO_BYTES) fail('MEMO_TOO_LONG');
      const expiry = input.expiry.second > 0n || !isZeroAddress(input.expiry.autoRenewAccount);
      return {
        ...current,
        name: input.name || current.name,
        symbol: input.symbol || current.symbol,
        memo: input.memo || current.memo,
        treasury,
        ...(await updatedKeys(call, current, input.keys)),
        ...(expiry ? await expiryValues(call, input.expiry) : {}),
      };
    }),
  ]),
  ...['(uint32,address,uint32)', '(int64,address,int64)'].map((expiry): [string, HtsFunction] => [
    `updateTokenExpiryInfo(address,${expiry})`,
    update(async (call, current) => {
      const input = expiryOf(call.args, 1);
      if (input.second > 0n && input.second < current.expirySeconds) fail('INVALID_EXPIRATION_TIME');
      return { ...current, ...(await expiryValues(call, { ...input, second: input.second || current.expirySeconds })) };
    }),
  ]),
  [
    'updateTokenKeys(address,(uint256,(bool,address,bytes,bytes,address))[])',
    update(async (call, current) => ({
      ...current,
      ...(await updatedKeys(call, current, tokenKeysOf(call.args.array(1)))),
    })),
  ],
];
