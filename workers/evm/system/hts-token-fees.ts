/**
 * `updateFungibleTokenCustomFees` and `updateNonFungibleTokenCustomFees` on HTS 0x167: the TokenFeeScheduleUpdate
 * the node dispatches (UpdateTokenCustomFeesTranslator/Decoder, TokenFeeScheduleUpdateHandler,
 * CustomFeesValidator.validateForFeeScheduleUpdate), answering its response code. The new schedule replaces the
 * token's fees for the rest of the run; empty lists clear them. More fees than `tokens.maxCustomFeesAllowed` fail in
 * the decoder, which halts the call.
 */
import type { EvmEntity } from '../types.ts';
import { type AbiArgs, AbiDecodeError } from './abi.ts';
import { partiesOf, signs } from './call-parties.ts';
import { accountAt, type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { keySatisfied } from './key-checks.ts';
import { dispatch, fail, fixed } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';
import { isZeroAddress } from './token-structs.ts';

/** `tokens.maxCustomFeesAllowed`. */
const MAX_CUSTOM_FEES = 10;
const FEE_SCHEDULE_KEY = 5;
const INT64_MAX = (1n << 63n) - 1n;

type FeeJson = Record<string, unknown>;

/** A fee as the decoder builds it: its collector, its denominating token (undefined: hbar) and its JSON. */
interface FeeInput {
  readonly kind: 'fixed' | 'fractional' | 'royalty';
  readonly collector: Uint8Array;
  readonly denomination: Uint8Array | undefined;
  readonly json: (collector: bigint, denomination: bigint | undefined) => FeeJson;
  /** The fee's own checks after its kind's (fractional: the fraction and bounds; fixed: the amount). */
  readonly check?: () => void;
}

const denominationOf = (token: Uint8Array, useHbar: boolean): Uint8Array | undefined =>
  useHbar || isZeroAddress(token) ? undefined : token;

const idText = (id: bigint | undefined): string | null => (id === undefined ? null : String(id));

function fixedFees(args: AbiArgs, own: Uint8Array): FeeInput[] {
  const list = args.array(1);
  return Array.from({ length: list.length }, (_, i) => {
    const at = i * 5;
    const amount = list.items.int(at, 64);
    const ownToken = list.items.bool(at + 3);
    return {
      kind: 'fixed',
      collector: list.items.address(at + 4),
      denomination: ownToken ? own : denominationOf(list.items.address(at + 1), list.items.bool(at + 2)),
      json: (collector, denomination) => ({
        amount: String(amount),
        denominating_token_id: idText(denomination),
        collector_account_id: String(collector),
      }),
      check: () => {
        if (amount <= 0n) fail('CUSTOM_FEE_MUST_BE_POSITIVE');
      },
    };
  });
}

function fractionalFees(args: AbiArgs): FeeInput[] {
  const list = args.array(2);
  return Array.from({ length: list.length }, (_, i) => {
    const at = i * 6;
    const [numerator, denominator] = [list.items.int(at, 64), list.items.int(at + 1, 64)];
    const [minimum, maximum] = [list.items.int(at + 2, 64), list.items.int(at + 3, 64)];
    const netOfTransfers = list.items.bool(at + 4);
    return {
      kind: 'fractional',
      collector: list.items.address(at + 5),
      denomination: undefined,
      json: (collector) => ({
        numerator: String(numerator),
        denominator: String(denominator),
        minimum_amount: String(minimum),
        maximum_amount: String(maximum),
        net_of_transfers: netOfTransfers,
        collector_account_id: String(collector),
      }),
      check: () => {
        // A maximum of 0 means no maximum.
        const ceiling = maximum === 0n ? INT64_MAX : maximum;
        if (denominator === 0n) fail('FRACTION_DIVIDES_BY_ZERO');
        if (numerator <= 0n || denominator <= 0n) fail('CUSTOM_FEE_MUST_BE_POSITIVE');
        if (minimum < 0n || ceiling < 0n) fail('CUSTOM_FEE_MUST_BE_POSITIVE');
        if (ceiling < minimum) fail('FRACTIONAL_FEE_MAX_AMOUNT_LESS_THAN_MIN_AMOUNT');
      },
    };
  });
}

function royaltyFees(args: AbiArgs): FeeInput[] {
  const list = args.array(2);
  return Array.from({ length: list.length }, (_, i) => {
    const at = i * 6;
    const [numerator, denominator, amount] = [
      list.items.int(at, 64),
      list.items.int(at + 1, 64),
      list.items.int(at + 2, 64),
    ];
    const fallbackToken = list.items.address(at + 3);
    // The decoder leaves the fallback out only when both its amount and its token are unset.
    const hasFallback = amount !== 0n || !isZeroAddress(fallbackToken);
    return {
      kind: 'royalty',
      collector: list.items.address(at + 5),
      denomination: hasFallback ? denominationOf(fallbackToken, list.items.bool(at + 4)) : undefined,
      json: (collector, denomination) => ({
        numerator: String(numerator),
        denominator: String(denominator),
        ...(hasFallback
          ? { fallback_fee: { amount: String(amount), denominating_token_id: idText(denomination) } }
          : {}),
        collector_account_id: String(collector),
      }),
    };
  });
}

/** The decoder's limit on the number of fees: beyond it the call cannot be built. */
function limited(fees: FeeInput[], fixedCount: number): FeeInput[] {
  const other = fees.length - fixedCount;
  if (fixedCount > MAX_CUSTOM_FEES || other > MAX_CUSTOM_FEES || fees.length > MAX_CUSTOM_FEES) {
    throw new AbiDecodeError('CUSTOM_FEES_LIST_TOO_LONG');
  }
  return fees;
}

/** `validateExplicitTokenDenomination`: a live, unpaused fungible token the collector is associated with. */
async function checkDenomination(call: HtsCall, collector: EvmEntity, address: Uint8Array): Promise<bigint> {
  const token = await tokenAt(call, address);
  if (!token || token.paused) return fail('INVALID_TOKEN_ID_IN_CUSTOM_FEES');
  if (!token.fungible) fail('CUSTOM_FEE_DENOMINATION_MUST_BE_FUNGIBLE_COMMON');
  if (!(await call.tokens.relationship(collector.id, token.id))?.associated) {
    fail('TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR');
  }
  return token.id;
}

async function feeJson(call: HtsCall, token: TokenState, fee: FeeInput): Promise<FeeJson> {
  const collector = (await accountAt(call, fee.collector)) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
  let denomination: bigint | undefined;
  if (fee.kind === 'fixed') {
    fee.check?.();
    if (fee.denomination) denomination = await checkDenomination(call, collector, fee.denomination);
  } else if (fee.kind === 'fractional') {
    if (!token.fungible) fail('CUSTOM_FRACTIONAL_FEE_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON');
    if (!(await call.tokens.relationship(collector.id, token.id))?.associated) {
      fail('TOKEN_NOT_ASSOCIATED_TO_FEE_COLLECTOR');
    }
    fee.check?.();
  } else {
    if (token.fungible) fail('CUSTOM_ROYALTY_FEE_ONLY_ALLOWED_FOR_NON_FUNGIBLE_UNIQUE');
    if (fee.denomination) denomination = await checkDenomination(call, collector, fee.denomination);
  }
  return fee.json(collector.id, denomination);
}

async function updateFees(call: HtsCall, fees: readonly FeeInput[]): Promise<undefined> {
  const token = (await tokenAt(call, call.args.address(0))) ?? fail('INVALID_TOKEN_ID');
  const feeKey = token.keyBytes[FEE_SCHEDULE_KEY];
  // The pre-handle: the fee schedule key signs, and so does every collector that requires its signature.
  if (feeKey) {
    if (!keySatisfied(feeKey, (await partiesOf(call)).signers)) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
    for (const fee of fees) {
      const collector = (await accountAt(call, fee.collector)) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
      if (collector.receiverSigRequired && !(await signs(call, collector))) {
        fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
      }
    }
  }
  if (token.deleted) fail('TOKEN_WAS_DELETED');
  if (token.paused) fail('TOKEN_IS_PAUSED');
  if (!feeKey) fail('TOKEN_HAS_NO_FEE_SCHEDULE_KEY');
  const schedule: { fixedFees: FeeJson[]; fractionalFees: FeeJson[]; royaltyFees: FeeJson[] } = {
    fixedFees: [],
    fractionalFees: [],
    royaltyFees: [],
  };
  for (const fee of fees) {
    const json = await feeJson(call, token, fee);
    const list = fee.kind === 'fixed' ? 'fixedFees' : fee.kind === 'fractional' ? 'fractionalFees' : 'royaltyFees';
    schedule[list].push(json);
  }
  call.tokens.putToken({ ...token, ...schedule });
  return undefined;
}

const FIXED_FEE = '(int64,address,bool,bool,address)[]';

export const TOKEN_FEE_FUNCTIONS: [string, HtsFunction][] = [
  [
    `updateFungibleTokenCustomFees(address,${FIXED_FEE},(int64,int64,int64,int64,bool,address)[])`,
    (call) => {
      const fixedList = fixedFees(call.args, call.args.address(0));
      const fees = limited([...fixedList, ...fractionalFees(call.args)], fixedList.length);
      return dispatch(fixed('UPDATE_TOKEN_CUSTOM_FEES'), (c) => updateFees(c, fees))(call);
    },
  ],
  [
    `updateNonFungibleTokenCustomFees(address,${FIXED_FEE},(int64,int64,int64,address,bool,address)[])`,
    (call) => {
      const fixedList = fixedFees(call.args, call.args.address(0));
      const fees = limited([...fixedList, ...royaltyFees(call.args)], fixedList.length);
      return dispatch(fixed('UPDATE_TOKEN_CUSTOM_FEES'), (c) => updateFees(c, fees))(call);
    },
  ],
];
