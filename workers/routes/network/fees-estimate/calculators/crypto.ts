import { countKeyField } from '../keys.ts';
import {
  bytesField,
  type Fields,
  fieldCount,
  messageField,
  oneofMember,
  repeatedMessages,
  repeatedVarintCount,
  varintField,
} from '../wire.ts';
import { addExtra, entityId, type ServiceCalculator, type ServiceContext } from './common.ts';

/** `contracts.maxGasPerSec`, the consensus node's default: the most gas one hook call may be charged for. */
const MAX_GAS_PER_HOOK = 15_000_000n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const clampLong = (value: bigint): bigint => (value > LONG_MAX ? LONG_MAX : value < LONG_MIN ? LONG_MIN : value);

export const cryptoCreate: ServiceCalculator = (op, context) => {
  if (op.has(1)) addExtra(context, 'KEYS', countKeyField(op, 1));
  const hooks = fieldCount(op, 19);
  if (hooks > 0) addExtra(context, 'HOOK_UPDATES', hooks);
};

export const cryptoUpdate: ServiceCalculator = (op, context) => {
  if (op.has(3)) addExtra(context, 'KEYS', countKeyField(op, 3));
  const hookOperations = fieldCount(op, 20) + repeatedVarintCount(op, 19);
  if (hookOperations > 0) addExtra(context, 'HOOK_UPDATES', hookOperations);
};

export const cryptoApproveAllowance: ServiceCalculator = (op, context) => {
  const allowances = fieldCount(op, 1) + fieldCount(op, 2) + fieldCount(op, 3);
  if (allowances > 0) addExtra(context, 'ALLOWANCES', allowances);
};

export const cryptoDeleteAllowance: ServiceCalculator = (op, context) => {
  const allowances = fieldCount(op, 2);
  if (allowances > 0) addExtra(context, 'ALLOWANCES', allowances);
};

// CryptoTransferTransactionBody
const TRANSFERS = 1;
const TOKEN_TRANSFERS = 2;
// TokenTransferList
const TOKEN = 1;
const TOKEN_AMOUNTS = 2;
const NFT_TRANSFERS = 3;

/** An account id's identity: shard, realm and the number or alias, as the node compares them. */
function accountKey(id: Fields | undefined): string {
  if (!id) return '';
  const alias = bytesField(id, 4);
  const account = alias === undefined ? `#${varintField(id, 3)}` : `@${[...alias].join(',')}`;
  return `${varintField(id, 1)}.${varintField(id, 2)}.${account}`;
}

interface Hooks {
  calls: bigint;
  gas: bigint;
}

/** Adds the allowance hooks set in a oneof pair: a pre-transaction hook runs once, a pre-and-post hook twice. */
function addHook(hooks: Hooks, fields: Fields, pre: number, prePost: number): void {
  const member = oneofMember(fields, [pre, prePost]);
  if (!member) return;
  const call = messageField(fields, member.number) as Fields;
  const evmCall = messageField(call, 3);
  const gas = evmCall ? BigInt.asIntN(64, varintField(evmCall, 2)) : 0n;
  const times = member.number === pre ? 1n : 2n;
  hooks.calls += times;
  for (let i = 0n; i < times; i++) hooks.gas = clampLong(hooks.gas + gas);
}

/** The calculator of a transfer, shared with airdrops (priced as a transfer of their token lists). */
async function transfer(hbarTransfers: Fields[], tokenLists: Fields[], context: ServiceContext): Promise<void> {
  const accounts = new Set<string>();
  const hooks: Hooks = { calls: 0n, gas: 0n };
  // AccountAmount: accountID, then its allowance hook (pre-transaction or pre-and-post)
  const amounts = (list: Fields, field: number) => {
    for (const amount of repeatedMessages(list, field)) {
      accounts.add(accountKey(messageField(amount, 1)));
      addHook(hooks, amount, 4, 5);
    }
  };
  for (const list of hbarTransfers) amounts(list, 1);
  for (const tokenList of tokenLists) {
    amounts(tokenList, TOKEN_AMOUNTS);
    for (const nft of repeatedMessages(tokenList, NFT_TRANSFERS)) {
      accounts.add(accountKey(messageField(nft, 1)));
      accounts.add(accountKey(messageField(nft, 2)));
      addHook(hooks, nft, 5, 6);
      addHook(hooks, nft, 7, 8);
    }
  }
  addExtra(context, 'ACCOUNTS', accounts.size);
  if (hooks.calls > 0n) {
    const limit = hooks.calls * MAX_GAS_PER_HOOK;
    const gas = hooks.gas < limit ? hooks.gas : limit;
    addExtra(context, 'HOOK_EXECUTION', hooks.calls);
    addExtra(context, 'GAS', gas > 0n ? gas : 0n);
  }
  if (!context.state) {
    // Without the ledger the kind of each token is unknown: every list is priced on its own count of transfers.
    for (const tokenList of tokenLists) {
      addExtra(context, 'TOKEN_TYPES', fieldCount(tokenList, TOKEN_AMOUNTS) + fieldCount(tokenList, NFT_TRANSFERS));
    }
    return;
  }
  await tokenKinds(tokenLists, context);
}

/** STATE mode: one transfer base fee (with or without custom fees) and one TOKEN_TYPES unit per token moved. */
async function tokenKinds(tokenLists: Fields[], context: ServiceContext): Promise<void> {
  const ids = tokenLists.map((list) => {
    const token = messageField(list, TOKEN);
    return token ? entityId(token) : undefined;
  });
  const tokens = await (context.state as NonNullable<ServiceContext['state']>).tokens(
    ids.filter((id): id is bigint => id !== undefined),
  );
  let standard = 0;
  let withCustomFees = 0;
  tokenLists.forEach((list, i) => {
    const id = ids[i];
    const token = id === undefined ? undefined : tokens.get(id);
    if (!token) return;
    const moved = token.fungible ? (fieldCount(list, TOKEN_AMOUNTS) > 0 ? 1 : 0) : fieldCount(list, NFT_TRANSFERS);
    if (token.hasCustomFees) withCustomFees += moved;
    else standard += moved;
  });
  if (withCustomFees > 0) addExtra(context, 'TOKEN_TRANSFER_BASE_CUSTOM_FEES', 1);
  else if (standard > 0) addExtra(context, 'TOKEN_TRANSFER_BASE', 1);
  addExtra(context, 'TOKEN_TYPES', standard + withCustomFees);
}

export const cryptoTransfer: ServiceCalculator = (op, context) => {
  const hbar = messageField(op, TRANSFERS);
  return transfer(hbar ? [hbar] : [], repeatedMessages(op, TOKEN_TRANSFERS), context);
};

/** TokenAirdrop: its token lists priced as a CryptoTransfer of them (the registry gives it the transfer's entry). */
export const tokenAirdrop: ServiceCalculator = (op, context) => transfer([], repeatedMessages(op, 1), context);
