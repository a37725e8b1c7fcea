/**
 * The HTS system contract's views the simulated network answers from its ledger model: isToken, getTokenType,
 * isFrozen, isKyc, getTokenDefaultFreezeStatus and getTokenDefaultKycStatus. Each answers `(int64 responseCode, value)`
 * at the view gas (SystemContractGasCalculator.viewGasRequirement: TokenGetInfo's $0.0001 as gas plus a fifth),
 * dispatches nothing and writes no record. A failure answers its code with the default value, except in a static
 * frame, where it reverts with the code's name, as the consensus node does (its issue #8746).
 */
import { EVMError, type ExecResult } from '@ethereumjs/evm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { numOfLongZero } from '../ledger/ids.ts';
import type { Ledger, Token } from '../ledger/ledger.ts';
import { word } from './abi.ts';
import { haltResult } from './hedera-evm.ts';
import { accountOf, argNum, argWord, CallFailure, INVALID_ACCOUNT_ID, INVALID_TOKEN_ID } from './hts-arguments.ts';
import { gasOfTinycents } from './hts-functions.ts';

/** TokenGetInfo's canonical price, $0.0001 in tinycents. */
const TOKEN_GET_INFO_TINYCENTS = 1_000_000n;
export const VIEW_GAS = gasOfTinycents(TOKEN_GET_INFO_TINYCENTS);

const SUCCESS = 22;
const STATUS_NAMES: Readonly<Record<number, string>> = {
  [INVALID_ACCOUNT_ID]: 'INVALID_ACCOUNT_ID',
  [INVALID_TOKEN_ID]: 'INVALID_TOKEN_ID',
};

type View = (ledger: Ledger, data: Uint8Array) => bigint;

const tokenArg = (ledger: Ledger, data: Uint8Array): Token => {
  const token = ledger.tokens.get(argNum(data, 0));
  if (!token) throw new CallFailure(INVALID_TOKEN_ID, 'no token');
  return token;
};

/** Whether the account in argument 1 is associated with the token, and its relationship's flag when it is. */
const relationship = (flag: (token: Token, account: bigint) => boolean): View => {
  return (ledger, data) => {
    const token = tokenArg(ledger, data);
    const account = accountOf(ledger, argWord(data, 1).subarray(12));
    return ledger.isAssociated(account, token.num) && flag(token, account) ? 1n : 0n;
  };
};

const VIEWS: Readonly<Record<string, View>> = {
  'isToken(address)': (ledger, data) =>
    ledger.tokens.has(numOfLongZero(argWord(data, 0).subarray(12)) ?? 0n) ? 1n : 0n,
  'getTokenType(address)': (ledger, data) => (tokenArg(ledger, data).type === 'FUNGIBLE_COMMON' ? 0n : 1n),
  'isFrozen(address,address)': relationship((token, account) => token.frozen?.has(account) ?? false),
  // Granted when the token has no KYC key to grant it with.
  'isKyc(address,address)': relationship((token, account) => !token.kycGranted || token.kycGranted.has(account)),
  'getTokenDefaultFreezeStatus(address)': (ledger, data) => (tokenArg(ledger, data).settings?.freezeDefault ? 1n : 0n),
  'getTokenDefaultKycStatus(address)': (ledger, data) => (tokenArg(ledger, data).kycGranted ? 0n : 1n),
};

const BY_SELECTOR = new Map(
  Object.entries(VIEWS).map(([signature, view]) => [
    Buffer.from(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4)).toString('hex'),
    view,
  ]),
);

/** The answer to a view call, or undefined when `selector` (hex) names no view. */
export function viewResult(
  ledger: Ledger,
  selector: string,
  data: Uint8Array,
  gasLimit: bigint,
  isStatic: boolean,
): ExecResult | undefined {
  const view = BY_SELECTOR.get(selector);
  if (!view) return undefined;
  if (VIEW_GAS > gasLimit) return haltResult(gasLimit);
  let status = SUCCESS;
  let value = 0n;
  try {
    value = view(ledger, data);
  } catch (error) {
    if (!(error instanceof CallFailure)) return haltResult(gasLimit);
    status = error.status;
  }
  if (status !== SUCCESS && isStatic) {
    return {
      returnValue: new TextEncoder().encode(STATUS_NAMES[status] ?? String(status)),
      executionGasUsed: VIEW_GAS,
      exceptionError: new EVMError(EVMError.errorMessages.REVERT),
    };
  }
  return { returnValue: Uint8Array.from([...word(BigInt(status)), ...word(value)]), executionGasUsed: VIEW_GAS };
}
