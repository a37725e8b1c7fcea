/**
 * Token creation on HTS 0x167: `createFungibleToken` / `createNonFungibleToken`, with or without custom fees, in
 * every version (ClassicCreatesCall). A fixed 100,000 gas; the rest of the TokenCreate price (its HAPI price plus a
 * fifth, less what the gas pays) is taken from the value sent; the new token is numbered as the node numbers
 * entities, its treasury holds the initial supply, and its address shows the redirect proxy.
 */

import type { ExecResult } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { redirectBytecode } from '../../../common/redirect-bytecode.ts';
import { hexOfBytes } from '../../../db/bytea.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import { longZeroAddress } from '../addresses.ts';
import { type AbiArgs, address, encode, int } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { partiesOf, signs } from './call-parties.ts';
import { entityNumbersOf } from './frames.ts';
import { accountAt, type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { CANONICAL_TINYCENTS } from './hts-gas.ts';
import { keySatisfied } from './key-checks.ts';
import { ledgerReads } from './ledger-reads.ts';
import { responseCode, revertWith, revertWithCode, success } from './results.ts';
import { byteLength, expiryValues, MAX_MEMO_BYTES, MAX_NAME_BYTES, MAX_SYMBOL_BYTES } from './token-checks.ts';
import { DispatchFailure, fail } from './token-dispatch.ts';
import { createdTokenFields, type TokenState } from './token-state.ts';
import {
  HEDERA_TOKEN_V1,
  HEDERA_TOKEN_V2,
  HEDERA_TOKEN_V3,
  type HederaTokenInput,
  hederaTokenOf,
  isZeroAddress,
  keyBytesFromList,
} from './token-structs.ts';

/** ClassicCreatesCall.FIXED_GAS_COST. */
const CREATE_GAS = 100_000n;
/** The ContractCall gas price, in tinycents. */
const GAS_PRICE_TINYCENTS = 852n;
const UNFROZEN = 2;
const KYC_GRANTED = 1;

type FeeJson = Record<string, unknown>;

interface Fees {
  readonly fixedFees: FeeJson[];
  readonly fractionalFees: FeeJson[];
  readonly royaltyFees: FeeJson[];
}

export const NO_FEES: Fees = { fixedFees: [], fractionalFees: [], royaltyFees: [] };

async function collectorId(call: HtsCall, collector: Uint8Array): Promise<string> {
  const account = await accountAt(call, collector);
  if (!account) return fail('INVALID_CUSTOM_FEE_COLLECTOR');
  return String(account.id);
}

/** The fee's denominating token, or null for hbar. */
async function denominationId(call: HtsCall, token: Uint8Array, useHbar: boolean): Promise<string | null> {
  if (useHbar || isZeroAddress(token)) return null;
  const denomination = await tokenAt(call, token);
  if (!denomination) return fail('INVALID_TOKEN_ID_IN_CUSTOM_FEES');
  return String(denomination.id);
}

/** The custom fee lists in head slots `fixedAt` and `otherAt`, as the mirror's custom_fee JSON stores them. */
async function feesOf(call: HtsCall, fungible: boolean, fixedAt: number, otherAt: number, own: bigint): Promise<Fees> {
  const fixedList = call.args.array(fixedAt);
  const fixedFees: FeeJson[] = [];
  for (let i = 0; i < fixedList.length; i++) {
    const at = i * 5;
    const ownToken = fixedList.items.bool(at + 3);
    fixedFees.push({
      amount: String(fixedList.items.int(at, 64)),
      denominating_token_id: ownToken
        ? String(own)
        : await denominationId(call, fixedList.items.address(at + 1), fixedList.items.bool(at + 2)),
      collector_account_id: await collectorId(call, fixedList.items.address(at + 4)),
    });
  }
  const other = call.args.array(otherAt);
  const fractionalFees: FeeJson[] = [];
  const royaltyFees: FeeJson[] = [];
  for (let i = 0; i < other.length; i++) {
    const at = i * 6;
    const [numerator, denominator] = [other.items.int(at, 64), other.items.int(at + 1, 64)];
    if (denominator === 0n) fail('FRACTION_DIVIDES_BY_ZERO');
    if (fungible) {
      fractionalFees.push({
        numerator: String(numerator),
        denominator: String(denominator),
        minimum_amount: String(other.items.int(at + 2, 64)),
        maximum_amount: String(other.items.int(at + 3, 64)),
        net_of_transfers: other.items.bool(at + 4),
        collector_account_id: await collectorId(call, other.items.address(at + 5)),
      });
    } else {
      const amount = other.items.int(at + 2, 64);
      royaltyFees.push({
        numerator: String(numerator),
        denominator: String(denominator),
        ...(amount > 0n
          ? {
              fallback_fee: {
                amount: String(amount),
                denominating_token_id: await denominationId(
                  call,
                  other.items.address(at + 3),
                  other.items.bool(at + 4),
                ),
              },
            }
          : {}),
        collector_account_id: await collectorId(call, other.items.address(at + 5)),
      });
    }
  }
  return { fixedFees, fractionalFees, royaltyFees };
}

export interface CreateInput {
  readonly token: HederaTokenInput;
  readonly fungible: boolean;
  readonly initialSupply: bigint;
  readonly decimals: bigint;
  readonly fees: (call: HtsCall, own: bigint) => Promise<Fees>;
  readonly withFees: boolean;
  /** The token's keys as a schedule resolved them when it was made (an inherited key is its creator's then). */
  readonly resolvedKeys?: readonly (Uint8Array | undefined)[];
}

/** TokenCreateHandler's checks and the new token; the treasury is associated and holds the initial supply. */
export async function createToken(call: HtsCall, input: CreateInput): Promise<Uint8Array> {
  const { token, fungible, initialSupply, decimals } = input;
  const { sender } = await partiesOf(call);
  if (byteLength(token.name) === 0) fail('MISSING_TOKEN_NAME');
  if (byteLength(token.name) > MAX_NAME_BYTES) fail('TOKEN_NAME_TOO_LONG');
  if (byteLength(token.symbol) > MAX_SYMBOL_BYTES) fail('TOKEN_SYMBOL_TOO_LONG');
  if (byteLength(token.memo) > MAX_MEMO_BYTES) fail('MEMO_TOO_LONG');
  if (initialSupply < 0n || (!fungible && initialSupply !== 0n)) fail('INVALID_TOKEN_INITIAL_SUPPLY');
  if (decimals < 0n || (!fungible && decimals !== 0n)) fail('INVALID_TOKEN_DECIMALS');
  if (token.finiteSupply && token.maxSupply <= 0n) fail('INVALID_TOKEN_MAX_SUPPLY');
  if (!token.finiteSupply && token.maxSupply !== 0n) fail('INVALID_TOKEN_MAX_SUPPLY');
  if (token.finiteSupply && initialSupply > token.maxSupply) fail('INVALID_TOKEN_INITIAL_SUPPLY');
  const network = call.reader.settings;
  const keyBytes = input.resolvedKeys
    ? [...input.resolvedKeys]
    : keyBytesFromList(token.keys, Array(7).fill(undefined), sender?.key, network);
  if (!fungible && !keyBytes[4]) fail('TOKEN_HAS_NO_SUPPLY_KEY');
  if (token.freezeDefault && !keyBytes[2]) fail('TOKEN_HAS_NO_FREEZE_KEY');
  const treasury = (await accountAt(call, token.treasury)) ?? fail('INVALID_TREASURY_ACCOUNT_FOR_TOKEN');
  const expiry = await expiryValues(call, token.expiry);
  const { signers } = await partiesOf(call);
  if (!(await signs(call, treasury))) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
  if (keyBytes[0] && !keySatisfied(keyBytes[0], signers)) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
  const numbers = await entityNumbersOf(call.evm);
  const id = encodeEntityId({ shard: network.shard, realm: network.realm, num: numbers.peek() });
  const fees = await input.fees(call, id);
  numbers.use();
  const state: TokenState = {
    id,
    fungible,
    name: token.name,
    symbol: token.symbol,
    memo: token.memo,
    decimals,
    totalSupply: initialSupply,
    maxSupply: token.maxSupply,
    finiteSupply: token.finiteSupply,
    treasury: treasury.id,
    freezeDefault: token.freezeDefault,
    ...createdTokenFields(keyBytes),
    ...expiry,
    ...fees,
  };
  const tokenAddress = longZeroAddress(id);
  call.tokens.putToken(state, hexOfBytes(tokenAddress));
  call.tokens.putRelationship(treasury.id, id, {
    associated: true,
    balance: String(initialSupply),
    freeze_status: keyBytes[2] ? UNFROZEN : 0,
    kyc_status: keyBytes[1] ? KYC_GRANTED : 0,
  });
  await call.evm.stateManager.putCode(new Address(tokenAddress), redirectBytecode('TOKEN', tokenAddress));
  return tokenAddress;
}

/** The value a creation must carry: the TokenCreate price in tinybars plus a fifth, less the fixed gas's worth. */
async function creationFee(call: HtsCall, withFees: boolean): Promise<bigint> {
  const rate = await ledgerReads(call.reader).exchangeRate();
  const tinycents = CANONICAL_TINYCENTS[withFees ? 'TOKEN_CREATE_CUSTOM_FEES' : 'TOKEN_CREATE'];
  const base = (tinycents * rate.hbarEquiv) / rate.centEquiv;
  const gasPrice = (GAS_PRICE_TINYCENTS * rate.hbarEquiv) / rate.centEquiv;
  return base + base / 5n - CREATE_GAS * gasPrice;
}

function creation(read: (call: HtsCall) => CreateRead): HtsFunction {
  return async (call): Promise<ExecResult> => {
    const input = read(call);
    const fee = await creationFee(call, input.withFees);
    if (call.value < fee) {
      const output = encode(int(responseCode('INSUFFICIENT_TX_FEE')), address(ZERO_ADDRESS));
      return success(CREATE_GAS, call.gasLimit, output);
    }
    if (byteLength(input.token.symbol) === 0) return revertWith('MISSING_TOKEN_SYMBOL', CREATE_GAS, call.gasLimit);
    if (!(await accountAt(call, input.token.treasury))) {
      return revertWith('INVALID_ACCOUNT_ID', CREATE_GAS, call.gasLimit);
    }
    call.tokens.checkpoint();
    try {
      const created = await createToken(call, { ...input, fees: input.fees ?? (async () => NO_FEES) });
      call.tokens.commit();
      return success(CREATE_GAS, call.gasLimit, encode(int(responseCode('SUCCESS')), address(created)));
    } catch (error) {
      call.tokens.revert();
      if (error instanceof DispatchFailure) return revertWithCode(error.status, CREATE_GAS, call.gasLimit);
      throw error;
    }
  };
}

const FIXED_FEES = '(int64,address,bool,bool,address)[]';
const FRACTIONAL_FEES = '(int64,int64,int64,int64,bool,address)[]';
const ROYALTY_FEES = '(int64,int64,int64,address,bool,address)[]';

const fungibleCreate = (args: AbiArgs, withFees: boolean) => ({
  token: hederaTokenOf(args, 0),
  fungible: true,
  initialSupply: args.int(1, 64),
  decimals: args.int(2, 32),
  withFees,
  ...(withFees ? { fees: (call: HtsCall, own: bigint) => feesOf(call, true, 3, 4, own) } : {}),
});

const nftCreate = (args: AbiArgs, withFees: boolean) => ({
  token: hederaTokenOf(args, 0),
  fungible: false,
  initialSupply: 0n,
  decimals: 0n,
  withFees,
  ...(withFees ? { fees: (call: HtsCall, own: bigint) => feesOf(call, false, 1, 2, own) } : {}),
});

/** What a create function's arguments describe; `fees` absent: the token charges none. */
export type CreateRead = Omit<CreateInput, 'fees'> & { fees?: CreateInput['fees'] };

/** Each create function's signature and how its arguments read. */
export const TOKEN_CREATE_READERS: [string, (args: AbiArgs) => CreateRead][] = [
  ...[
    [HEDERA_TOKEN_V1, 'uint256,uint256'],
    [HEDERA_TOKEN_V2, 'uint64,uint32'],
    [HEDERA_TOKEN_V3, 'int64,int32'],
  ].flatMap(([token, amounts]): [string, (args: AbiArgs) => CreateRead][] => [
    [`createFungibleToken(${token},${amounts})`, (args) => fungibleCreate(args, false)],
    [
      `createFungibleTokenWithCustomFees(${token},${amounts},${FIXED_FEES},${FRACTIONAL_FEES})`,
      (args) => fungibleCreate(args, true),
    ],
    [`createNonFungibleToken(${token})`, (args) => nftCreate(args, false)],
    [`createNonFungibleTokenWithCustomFees(${token},${FIXED_FEES},${ROYALTY_FEES})`, (args) => nftCreate(args, true)],
  ]),
];

export const TOKEN_CREATE_FUNCTIONS: [string, HtsFunction][] = TOKEN_CREATE_READERS.map(([name, read]) => [
  name,
  creation((call) => read(call.args)),
]);
