/**
 * HAS, the account service system contract at 0x16a (HIP-632): hbar allowances, the aliases of an account, and
 * `isAuthorizedRaw`, which checks a raw ECDSA secp256k1 or ED25519 signature against an account. Also the account
 * redirect (`redirectForAccount`), through which an account's own address answers `hbarAllowance(spender)` and
 * `hbarApprove(spender, amount)`. `hbarApprove` writes the run's token ledger (token-ledger.ts), so a later
 * `hbarAllowance` of the run sees it; `setUnlimitedAutomaticAssociations()` (has-auto-associations.ts) sets the
 * account's automatic association limit for the rest of the run; `isAuthorized` (has-is-authorized.ts) checks a
 * SignatureMap against an account's whole key.
 */
import type { ExecResult, PrecompileFunc } from '@ethereumjs/evm';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { fields } from '../../format/protobuf-reader.ts';
import { entityIdOfLongZero, longZeroAddress } from '../addresses.ts';
import type { EvmEntity, LedgerReader } from '../types.ts';
import {
  AbiArgs,
  AbiDecodeError,
  type AbiValue,
  address,
  bool,
  encode,
  int,
  leadingSelector,
  selectorOf,
} from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { signs } from './call-parties.ts';
import { delegatingContract } from './frames.ts';
import { setUnlimitedAutoAssociations } from './has-auto-associations.ts';
import { isAuthorized } from './has-is-authorized.ts';
import { accountAt, type HtsCall, systemCallBase } from './hts-context.ts';
import { canonicalGas } from './hts-gas.ts';
import { parseRedirect } from './redirect-input.ts';
import {
  halt,
  type ResponseCodeName,
  responseCode,
  revertWith,
  revertWithCode,
  success,
  unknownSelector,
  VIEW_GAS,
} from './results.ts';

/** ECRECOVER's gas, what the consensus node charges for an ECDSA `isAuthorizedRaw`. */
const EC_VERIFY_GAS = 3000n;
/** `CustomGasCalculator.getEdSignatureVerificationSystemContractGasCost()`: an ED25519 verification. */
const ED_VERIFY_GAS = 1_500_000n;

const EC_SIGNATURE_MIN = 65;
/** r, s and a v of up to 8 bytes (an EIP-155 v with a chain id that fits a long). */
const EC_SIGNATURE_MAX = 72;
const ED_SIGNATURE = 64;

const REDIRECT_FOR_ACCOUNT = selectorOf('redirectForAccount(address,bytes)');
const HBAR_ALLOWANCE = selectorOf('hbarAllowance(address,address)');
const HBAR_ALLOWANCE_OF_ACCOUNT = selectorOf('hbarAllowance(address)');
const HBAR_APPROVE = selectorOf('hbarApprove(address,address,int256)');
const HBAR_APPROVE_FROM_ACCOUNT = selectorOf('hbarApprove(address,int256)');
const GET_EVM_ADDRESS_ALIAS = selectorOf('getEvmAddressAlias(address)');
const GET_HEDERA_ACCOUNT_NUM_ALIAS = selectorOf('getHederaAccountNumAlias(address)');
const IS_VALID_ALIAS = selectorOf('isValidAlias(address)');
const IS_AUTHORIZED_RAW = selectorOf('isAuthorizedRaw(address,bytes,bytes)');
const IS_AUTHORIZED = selectorOf('isAuthorized(address,bytes,bytes)');
const SET_UNLIMITED_AUTO_ASSOCIATIONS = selectorOf('setUnlimitedAutomaticAssociations(bool)');

type HasCall = HtsCall;

const INT64_MAX = (1n << 63n) - 1n;

const answer = (call: HasCall, status: ResponseCodeName, ...values: AbiValue[]) =>
  success(VIEW_GAS, call.gasLimit, encode(int(responseCode(status)), ...values));

/** Whether `value` is a long-zero address of the network's shard and realm. */
const isLongZero = (reader: LedgerReader, value: Uint8Array): boolean =>
  entityIdOfLongZero(value, reader.settings.shard, reader.settings.realm) !== undefined;

async function hbarAllowance(call: HasCall, owner: EvmEntity | undefined, spenderAddress: Uint8Array) {
  if (!owner) return answer(call, 'INVALID_ALLOWANCE_OWNER_ID', int(0n));
  const spender = await accountAt(call, spenderAddress);
  if (!spender) return answer(call, 'INVALID_ALLOWANCE_SPENDER_ID', int(0n));
  const amount = await call.tokens.cryptoAllowance(owner.id, spender.id);
  return answer(call, 'SUCCESS', int(amount));
}

/** The EVM address of the account a long-zero address numbers (read by its id: an aliased account included). */
async function evmAddressAlias(call: HasCall): Promise<ExecResult> {
  const { reader } = call;
  const id = entityIdOfLongZero(call.args.address(0), reader.settings.shard, reader.settings.realm);
  const entity = id === undefined ? undefined : (call.tokens.createdAccount(id) ?? (await reader.entityById(id)));
  if (!entity || (entity.type !== 'ACCOUNT' && entity.type !== 'CONTRACT')) {
    return answer(call, 'INVALID_SOLIDITY_ADDRESS', address(ZERO_ADDRESS));
  }
  if (!entity.evmAddress) return answer(call, 'INVALID_ACCOUNT_ID', address(ZERO_ADDRESS));
  return answer(call, 'SUCCESS', address(entity.evmAddress));
}

async function accountNumAlias(call: HasCall): Promise<ExecResult> {
  const target = call.args.address(0);
  const account = isLongZero(call.reader, target) ? undefined : await accountAt(call, target);
  if (!account) return answer(call, 'INVALID_SOLIDITY_ADDRESS', address(ZERO_ADDRESS));
  return answer(call, 'SUCCESS', address(longZeroAddress(account.id)));
}

/** v as 27 or 28: 0/1 and 27/28 as they are, an EIP-155 v (35 + 2 × chain id + parity) by its parity. */
function recoveryV(v: bigint): 27 | 28 | undefined {
  if (v === 0n || v === 27n) return 27;
  if (v === 1n || v === 28n) return 28;
  if (v < 35n) return undefined;
  return (v & 1n) === 0n ? 28 : 27;
}

function ecRecoveredAddress(hash: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  let v = 0n;
  for (const byte of signature.subarray(64)) v = (v << 8n) | BigInt(byte);
  const recovery = recoveryV(v);
  if (recovery === undefined) return undefined;
  try {
    const point = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact')
      .addRecoveryBit(recovery - 27)
      .recoverPublicKey(hash);
    return keccak_256(point.toBytes(false).subarray(1)).subarray(12);
  } catch {
    return undefined;
  }
}

type SimpleKey = { ed25519: Uint8Array } | { other: true } | { complex: true };

/** The account's key when it is one primitive key; a key list or threshold key is not simple. */
function simpleKey(key: Uint8Array): SimpleKey {
  for (const field of fields(key)) {
    if (!('bytes' in field)) continue;
    if (field.number === 2) return { ed25519: field.bytes };
    if (field.number === 5 || field.number === 6) return { complex: true };
  }
  return { other: true };
}

async function isAuthorizedRaw(call: HasCall): Promise<ExecResult> {
  const { reader, args, gasLimit } = call;
  const target = args.address(0);
  const hash = args.bytes(1);
  const signature = args.bytes(2);
  const isEc = signature.length >= EC_SIGNATURE_MIN && signature.length <= EC_SIGNATURE_MAX;
  const isEd = signature.length === ED_SIGNATURE;
  // The consensus node's failures revert and keep all the remaining gas.
  const bail = (status: ResponseCodeName) => revertWith(status, gasLimit, gasLimit);
  if (!isEc && !isEd) return bail('INVALID_TRANSACTION_BODY');
  const gas = isEc ? EC_VERIFY_GAS : ED_VERIFY_GAS;
  if (gasLimit < gas) return bail('INSUFFICIENT_GAS');
  if (isEc && hash.length !== 32) return bail('INVALID_TRANSACTION_BODY');
  const account = await accountAt(call, target);
  // An ECDSA signature needs the account's EVM address, not its long-zero one.
  if (!account || (isEc && isLongZero(reader, target))) return bail('INVALID_ACCOUNT_ID');
  if (isEc) {
    const recovered = ecRecoveredAddress(hash, signature);
    const authorized = recovered?.every((byte, i) => byte === target[i]) === true;
    return success(gas, gasLimit, encode(bool(authorized)));
  }
  if (!account.key) return bail('INVALID_TRANSACTION_BODY');
  const key = simpleKey(account.key);
  if ('complex' in key) return bail('INVALID_TRANSACTION_BODY');
  if (!('ed25519' in key)) return bail('INVALID_SIGNATURE_TYPE_MISMATCHING_KEY');
  let authorized = false;
  try {
    authorized = ed25519.verify(signature, hash, key.ed25519);
  } catch {
    authorized = false;
  }
  return success(gas, gasLimit, encode(bool(authorized)));
}

/**
 * `hbarApprove`: a CryptoApproveAllowance of hbar from `ownerAddress` to the spender, for the sender as payer; the
 * owner's key must be active unless the owner is the sender (HbarApproveCall). A failure reverts with its code.
 */
async function hbarApprove(call: HasCall, ownerAddress: Uint8Array, spenderAddress: Uint8Array, amount: bigint) {
  const gas = canonicalGas('APPROVE');
  if (call.isStatic) return halt(call.gasLimit);
  const status = await (async (): Promise<ResponseCodeName> => {
    const owner = await accountAt(call, ownerAddress);
    if (!owner) return 'INVALID_ALLOWANCE_OWNER_ID';
    const spender = await accountAt(call, spenderAddress);
    if (!spender) return 'INVALID_ALLOWANCE_SPENDER_ID';
    if (amount < 0n) return 'NEGATIVE_ALLOWANCE_AMOUNT';
    if (owner.id === spender.id) return 'SPENDER_ACCOUNT_SAME_AS_OWNER';
    if (!(await signs(call, owner))) return 'INVALID_SIGNATURE';
    call.tokens.putCryptoAllowance(owner.id, spender.id, amount);
    return 'SUCCESS';
  })();
  if (status !== 'SUCCESS') return revertWithCode(status, gas, call.gasLimit);
  return success(gas, call.gasLimit, encode(int(responseCode(status))));
}

/** An int256 amount that must fit int64, as the node's HAPI amount does. */
function int64Amount(args: AbiArgs, index: number): bigint {
  const amount = args.int(index);
  if (amount > INT64_MAX || amount < -INT64_MAX - 1n) throw new AbiDecodeError('amount out of range');
  return amount;
}

async function direct(call: HasCall, selector: number): Promise<ExecResult> {
  switch (selector) {
    case HBAR_APPROVE:
      return hbarApprove(call, call.args.address(0), call.args.address(1), int64Amount(call.args, 2));
    case HBAR_ALLOWANCE:
      return hbarAllowance(call, await accountAt(call, call.args.address(0)), call.args.address(1));
    case GET_EVM_ADDRESS_ALIAS:
      return evmAddressAlias(call);
    case GET_HEDERA_ACCOUNT_NUM_ALIAS:
      return accountNumAlias(call);
    case IS_VALID_ALIAS:
      return success(
        VIEW_GAS,
        call.gasLimit,
        encode(bool((await accountAt(call, call.args.address(0))) !== undefined)),
      );
    case IS_AUTHORIZED_RAW:
      return isAuthorizedRaw(call);
    case IS_AUTHORIZED:
      return isAuthorized(call);
    default:
      // every function the node's HAS translators declare (0.73) is handled here or in `redirect`
      return unknownSelector();
  }
}

async function redirect(base: Omit<HasCall, 'args'>, input: Uint8Array): Promise<ExecResult> {
  const redirected = parseRedirect(input);
  const selector = redirected && leadingSelector(redirected.data);
  if (!redirected || selector === undefined) return halt(base.gasLimit);
  const call = { ...base, args: new AbiArgs(redirected.data.subarray(4)) };
  if (selector === HBAR_APPROVE_FROM_ACCOUNT) {
    return hbarApprove(call, redirected.target, call.args.address(0), int64Amount(call.args, 1));
  }
  if (selector === SET_UNLIMITED_AUTO_ASSOCIATIONS) return setUnlimitedAutoAssociations(call, redirected.target);
  if (selector !== HBAR_ALLOWANCE_OF_ACCOUNT) return unknownSelector();
  return hbarAllowance(call, await accountAt(base, redirected.target), call.args.address(0));
}

export function hasPrecompile(reader: LedgerReader): PrecompileFunc {
  return async ({ data, gasLimit, _EVM }) => {
    const selector = leadingSelector(data);
    if (selector === undefined) return halt(gasLimit);
    const base = systemCallBase(reader, _EVM, gasLimit);
    // Only an account's own proxy may DELEGATECALL HAS; any other delegation halts (UNQUALIFIED_DELEGATE).
    const delegating = delegatingContract(_EVM);
    if (delegating && !(await accountAt(base, delegating))) return halt(gasLimit);
    try {
      if (selector === REDIRECT_FOR_ACCOUNT) return await redirect(base, data);
      return await direct({ ...base, args: new AbiArgs(data.subarray(4)) }, selector);
    } catch (error) {
      if (error instanceof AbiDecodeError) return halt(gasLimit);
      throw error;
    }
  };
}
