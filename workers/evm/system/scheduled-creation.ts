/**
 * The TokenCreate a `scheduleNative` schedule holds (ScheduleNativeCall: the HTS create call's schedulable body, as
 * the node's CreateDecoder builds it): the call's token as given, its keys resolved now (an inherited key is the
 * sender's), the treasury and auto-renew account by number, the expiry second and renewal period as given, and the
 * custom fees with their collectors and denominating tokens resolved (a fee in the new token names 0.0.0). A fee that
 * names no collector or token fails with its status; the token's own rules are checked only when it executes, as
 * the create call run for the schedule's payer.
 */
import { entityIdOfLongZero, longZeroAddress } from '../addresses.ts';
import { AbiArgs, leadingSelector, selectorOf } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { partiesOf } from './call-parties.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import { type CreateInput, type CreateRead, createToken, NO_FEES, TOKEN_CREATE_READERS } from './hts-token-create.ts';
import type { ResponseCodeName } from './results.ts';
import type { ScheduledToken } from './scheduled-token.ts';
import { DispatchFailure } from './token-dispatch.ts';
import { createdTokenFields, type TokenState } from './token-state.ts';
import { isZeroAddress, keyBytesFromList } from './token-structs.ts';

const READERS = new Map(TOKEN_CREATE_READERS.map(([name, read]) => [selectorOf(name), read]));

export interface ScheduledCreation {
  readonly token: ScheduledToken;
  /** The create call's input, its keys resolved, to run when the schedule executes. */
  readonly input: CreateInput;
}

/** An account's number by its address: the account's id, else the long-zero address's number (0 for neither). */
async function idOf(call: HtsCall, address: Uint8Array): Promise<bigint> {
  const account = await accountAt(call, address);
  if (account) return account.id;
  const { shard, realm } = call.reader.settings;
  return entityIdOfLongZero(address, shard, realm) ?? 0n;
}

/** The TokenCreate of create call data; undefined when the data is no create call (a token update). */
export async function scheduledCreation(
  call: HtsCall,
  data: Uint8Array,
): Promise<ScheduledCreation | ResponseCodeName | undefined> {
  const selector = leadingSelector(data);
  const read = selector === undefined ? undefined : READERS.get(selector);
  if (!read) return undefined;
  const args = new AbiArgs(data.subarray(4));
  const described = read(args);
  // The fee lists read from the create call's own arguments, whichever call resolves them.
  const readFees = described.fees;
  const created: CreateRead = {
    ...described,
    ...(readFees ? { fees: (on: HtsCall, own: bigint) => readFees({ ...on, args }, own) } : {}),
  };
  const { token } = created;
  const { sender } = await partiesOf(call);
  const keyBytes = keyBytesFromList(token.keys, Array(7).fill(undefined), sender?.key, call.reader.settings);
  let fees: Pick<TokenState, 'fixedFees' | 'fractionalFees' | 'royaltyFees'>;
  try {
    fees = created.fees ? await created.fees(call, 0n) : NO_FEES;
  } catch (error) {
    if (error instanceof DispatchFailure) return error.status;
    throw error;
  }
  const { expiry } = token;
  const state: TokenState = {
    id: 0n,
    fungible: created.fungible,
    name: token.name,
    symbol: token.symbol,
    memo: token.memo,
    decimals: created.decimals,
    totalSupply: created.initialSupply,
    maxSupply: token.maxSupply,
    finiteSupply: token.finiteSupply,
    treasury: await idOf(call, token.treasury),
    freezeDefault: token.freezeDefault,
    ...createdTokenFields(keyBytes),
    expirySeconds: expiry.second,
    autoRenewAccount: isZeroAddress(expiry.autoRenewAccount) ? undefined : await idOf(call, expiry.autoRenewAccount),
    autoRenewSeconds: expiry.autoRenewPeriod,
    ...fees,
  };
  const input: CreateInput = { ...created, fees: created.fees ?? (async () => NO_FEES), resolvedKeys: keyBytes };
  return { token: { token: state, metadata: new Uint8Array() }, input };
}

type FeeJson = Record<string, unknown>;

/** A fee named in 0.0.0 (the token being created) named in the created token's id. */
function inOwnToken(fee: FeeJson, own: bigint): FeeJson {
  return fee.denominating_token_id === '0' ? { ...fee, denominating_token_id: String(own) } : fee;
}

/** The create input of a TokenCreate the ledger's schedule holds: its fields, keys and fees as stored. */
export function storedCreation({ token }: ScheduledToken): CreateInput {
  const { fixedFees, fractionalFees, royaltyFees } = token;
  return {
    token: {
      name: token.name,
      symbol: token.symbol,
      treasury: longZeroAddress(token.treasury),
      memo: token.memo,
      finiteSupply: token.finiteSupply,
      maxSupply: token.maxSupply,
      freezeDefault: token.freezeDefault,
      keys: [],
      expiry: {
        second: token.expirySeconds,
        autoRenewAccount: token.autoRenewAccount === undefined ? ZERO_ADDRESS : longZeroAddress(token.autoRenewAccount),
        autoRenewPeriod: token.autoRenewSeconds,
      },
    },
    fungible: token.fungible,
    initialSupply: token.totalSupply,
    decimals: token.decimals,
    withFees: fixedFees.length + fractionalFees.length + royaltyFees.length > 0,
    fees: async (_, own) => ({
      fixedFees: fixedFees.map((fee) => inOwnToken(fee, own)),
      fractionalFees: [...fractionalFees],
      royaltyFees: royaltyFees.map((fee) =>
        fee.fallback_fee ? { ...fee, fallback_fee: inOwnToken(fee.fallback_fee as FeeJson, own) } : fee,
      ),
    }),
    resolvedKeys: token.keyBytes,
  };
}

/**
 * Runs a scheduled creation for the acting call (the schedule's payer and signatories), all or nothing: a failure
 * is the scheduled transaction's, not the signing's.
 */
export async function executeCreation(acting: HtsCall, input: CreateInput): Promise<void> {
  acting.tokens.checkpoint();
  try {
    await createToken(acting, input);
    acting.tokens.commit();
  } catch (error) {
    acting.tokens.revert();
    if (!(error instanceof DispatchFailure)) throw error;
  }
}
