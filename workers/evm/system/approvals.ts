/**
 * The synthetic CryptoApproveAllowance (and CryptoDeleteAllowance) of the approval functions, checked as the
 * consensus node's ApproveAllowanceValidator does it, for the call's sender as the owner: a fungible allowance, an
 * NFT serial's spender, or an operator for all of the owner's serials.
 */
import { ZERO_ADDRESS } from './addresses.ts';
import { partiesOf } from './call-parties.ts';
import { accountAt, type HtsCall } from './hts-context.ts';
import type { ResponseCodeName } from './results.ts';
import type { TokenState } from './token-state.ts';

const INT64_MAX = (1n << 63n) - 1n;

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** The sender as owner: it must exist and be associated with the token. */
async function owner(call: HtsCall, token: TokenState): Promise<bigint | ResponseCodeName> {
  const { sender } = await partiesOf(call);
  if (!sender) return 'INVALID_ALLOWANCE_OWNER_ID';
  if (token.deleted) return 'TOKEN_WAS_DELETED';
  if (token.paused) return 'TOKEN_IS_PAUSED';
  const row = await call.tokens.relationship(sender.id, token.id);
  if (!row?.associated) return 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT';
  return sender.id;
}

/** `approve(spender, amount)` of a fungible token. */
export async function approveTokenAllowance(
  call: HtsCall,
  token: TokenState,
  spenderAddress: Uint8Array,
  amount: bigint,
): Promise<ResponseCodeName> {
  if (amount < 0n || amount > INT64_MAX) return 'NEGATIVE_ALLOWANCE_AMOUNT';
  const spender = await accountAt(call, spenderAddress);
  if (!spender) return 'INVALID_ALLOWANCE_SPENDER_ID';
  if (!token.fungible) return 'INVALID_TOKEN_ID';
  const ownerId = await owner(call, token);
  if (typeof ownerId !== 'bigint') return ownerId;
  if (ownerId === spender.id) return 'SPENDER_ACCOUNT_SAME_AS_OWNER';
  call.tokens.putTokenAllowance(ownerId, spender.id, token.id, amount);
  return 'SUCCESS';
}

/**
 * `approve(spender, serial)` of an NFT: the serial's owner, or an operator the owner approved for all its serials,
 * sets the serial's spender; the zero address removes it.
 */
export async function approveNft(
  call: HtsCall,
  token: TokenState,
  spenderAddress: Uint8Array,
  serial: bigint,
): Promise<ResponseCodeName> {
  if (token.fungible) return 'INVALID_TOKEN_ID';
  if (serial <= 0n || serial > INT64_MAX) return 'INVALID_TOKEN_NFT_SERIAL_NUMBER';
  const { sender } = await partiesOf(call);
  if (!sender) return 'INVALID_ALLOWANCE_OWNER_ID';
  if (token.deleted) return 'TOKEN_WAS_DELETED';
  if (token.paused) return 'TOKEN_IS_PAUSED';
  const nft = await call.tokens.nft(token.id, serial);
  if (!nft) return 'INVALID_TOKEN_NFT_SERIAL_NUMBER';
  const ownerId = nft.account_id === null ? token.treasury : BigInt(nft.account_id);
  const revoke = equal(spenderAddress, ZERO_ADDRESS);
  const spender = revoke ? undefined : await accountAt(call, spenderAddress);
  if (!revoke && !spender) return 'INVALID_ALLOWANCE_SPENDER_ID';
  if (ownerId !== sender.id && !(await call.tokens.approvedForAll(ownerId, sender.id, token.id))) {
    return 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO';
  }
  const row = await call.tokens.relationship(ownerId, token.id);
  if (!row?.associated) return 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT';
  call.tokens.putNft(token.id, serial, { ...nft, spender: spender ? String(spender.id) : null });
  return 'SUCCESS';
}

/** `setApprovalForAll(operator, approved)`: the sender approves (or stops approving) an operator for its serials. */
export async function setApprovalForAll(
  call: HtsCall,
  token: TokenState,
  operatorAddress: Uint8Array,
  approved: boolean,
): Promise<ResponseCodeName> {
  const operator = await accountAt(call, operatorAddress);
  if (!operator) return 'INVALID_ALLOWANCE_SPENDER_ID';
  if (token.fungible) return 'INVALID_TOKEN_ID';
  const ownerId = await owner(call, token);
  if (typeof ownerId !== 'bigint') return ownerId;
  if (ownerId === operator.id) return 'SPENDER_ACCOUNT_SAME_AS_OWNER';
  call.tokens.putApprovedForAll(ownerId, operator.id, token.id, approved);
  return 'SUCCESS';
}
