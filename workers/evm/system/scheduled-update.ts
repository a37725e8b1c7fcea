/**
 * The TokenUpdate a `scheduleNative` schedule holds (the HTS update call's schedulable body): the call itself, run
 * for the payer when the schedule executes, and what its required keys depend on (TokenUpdateHandler.preHandle): the
 * token, whether only its expiry changes, and the admin key, treasury and auto-renew account it names (an inherited
 * admin key is the sender's when the schedule is made).
 */
import { AbiArgs, AbiDecodeError, leadingSelector, selectorOf } from './abi.ts';
import { partiesOf } from './call-parties.ts';
import type { HtsCall, HtsFunction } from './hts-context.ts';
import { TOKEN_UPDATE_FUNCTIONS } from './hts-token-update.ts';
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

export interface ScheduledUpdate {
  readonly kind: 'TOKEN_UPDATE';
  readonly token: Uint8Array;
  readonly run: HtsFunction;
  readonly args: AbiArgs;
  /** `updateTokenExpiryInfo`: the token's admin key is not among the required keys. */
  readonly expiryOnly: boolean;
  readonly adminKey: Uint8Array | undefined;
  readonly treasury: Uint8Array | undefined;
  readonly autoRenewAccount: Uint8Array | undefined;
}

const UPDATES = new Map(TOKEN_UPDATE_FUNCTIONS.map(([name, run]) => [selectorOf(name), run]));
const INFO = new Set(
  [HEDERA_TOKEN_V1, HEDERA_TOKEN_V2, HEDERA_TOKEN_V3].map((t) => selectorOf(`updateTokenInfo(address,${t})`)),
);
const EXPIRY = new Set(
  ['(uint32,address,uint32)', '(int64,address,int64)'].map((e) => selectorOf(`updateTokenExpiryInfo(address,${e})`)),
);

const named = (address: Uint8Array) => (isZeroAddress(address) ? undefined : address);

/** The TokenUpdate of HTS update call data; data that is no update fails to decode. */
export async function scheduledUpdate(call: HtsCall, data: Uint8Array): Promise<ScheduledUpdate> {
  const selector = leadingSelector(data);
  const run = selector === undefined ? undefined : UPDATES.get(selector);
  if (selector === undefined || !run) throw new AbiDecodeError('no token update');
  const args = new AbiArgs(data.subarray(4));
  let keys: readonly TokenKeyInput[] = [];
  let treasury: Uint8Array | undefined;
  let autoRenewAccount: Uint8Array | undefined;
  if (INFO.has(selector)) {
    const token = hederaTokenOf(args, 1);
    keys = token.keys;
    treasury = named(token.treasury);
    autoRenewAccount = named(token.expiry.autoRenewAccount);
  } else if (EXPIRY.has(selector)) {
    autoRenewAccount = named(expiryOf(args, 1).autoRenewAccount);
  } else {
    keys = tokenKeysOf(args.array(1));
  }
  const { sender } = await partiesOf(call);
  const [adminKey] = keyBytesFromList(keys, Array(7).fill(undefined), sender?.key, call.reader.settings);
  return {
    kind: 'TOKEN_UPDATE',
    token: args.address(0),
    run,
    args,
    expiryOnly: EXPIRY.has(selector),
    adminKey,
    treasury,
    autoRenewAccount,
  };
}
