/**
 * EIP-7702 in the simulated ledger (HIP-1340): accounts with an ECDSA key sign authorizations delegating their
 * account to a deployed Counter (or clearing an earlier delegation), which a type 4 Ethereum transaction carries;
 * later transactions call those accounts and run the Counter's code on the account's own storage.
 *
 * Authorizations are applied as the consensus node applies them, after the sender's nonce moved on and before the
 * call, whether the call then succeeds or reverts: one with another chain's id, or a nonce other than its
 * authority's, is skipped; each applied one moves its authority's nonce on and is reported as a child
 * CryptoUpdate with `delegation_address`, one nanosecond apart after its parent.
 */

import { artifact, callData, word } from '../evm/abi.ts';
import { type Authorization, CHAIN_ID, signAuthorization } from '../evm/ethereum-tx.ts';
import type { Delegation, EvmOutcome, SimEvm } from '../evm/evm.ts';
import { applyStorage, functionResult, sidecarsOf } from '../evm/records.ts';
import { accountPb, longZeroAddress, timestampPb } from '../ledger/ids.ts';
import type { Account } from '../ledger/ledger.ts';
import { singleKey } from '../network/keys.ts';
import type { Network, SimItem } from '../network/network.ts';
import { type AuthorizedCall, noteResult } from './contract-calls.ts';

const ZERO_ADDRESS = new Uint8Array(20);
/** Another chain's id (testnet's, or previewnet's on testnet): an authorization signed for it is skipped here. */
const OTHER_CHAIN_ID = CHAIN_ID === 296n ? 297n : 296n;
const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/** An account that can sign an authorization: live, with the ECDSA key its EVM address comes from. */
function canAuthorize(account: Account): account is Account & { evmAddress: Uint8Array } {
  return !account.deleted && singleKey(account.key)?.privateKey !== undefined && account.evmAddress !== undefined;
}

export interface SignedAuthorization {
  readonly authorization: Authorization;
  /** The account that signed it. */
  readonly authority: bigint;
}

/**
 * One or two authorizations by accounts other than `signer`: mostly valid (for any chain or this one), some for
 * another chain or with a stale nonce, some clearing a delegation.
 */
export function planAuthorizations(net: Network, signer: bigint): SignedAuthorization[] {
  const counter = net.ledger.contractPool.find(net.random, (num) => net.ledger.contracts.get(num)?.kind === 'Counter');
  if (counter === undefined) return [];
  const out: SignedAuthorization[] = [];
  for (let i = net.random.int(1, 2); i > 0; i--) {
    const num = net.ledger.users.find(net.random, (n) => n !== signer && canAuthorize(net.ledger.account(n)), 12);
    const authority = num === undefined ? undefined : net.ledger.account(num);
    const key = singleKey(authority?.key)?.privateKey;
    if (!authority || !key) continue;
    const clears = authority.delegation !== undefined && net.random.chance(0.1);
    const stale = net.random.chance(0.1);
    const chainId = net.random.pick([0n, CHAIN_ID, CHAIN_ID, OTHER_CHAIN_ID]);
    const authorization = signAuthorization(
      chainId,
      clears ? ZERO_ADDRESS : longZeroAddress(counter),
      authority.ethereumNonce + (stale ? 1n : 0n),
      key,
    );
    out.push({ authorization, authority: authority.num });
  }
  return out;
}

/** The authorizations the ledger applies, in order, moving their authorities' nonces and delegations on. */
export function applyAuthorizations(
  net: Network,
  signed: readonly SignedAuthorization[],
): { num: bigint; delegation: Delegation }[] {
  const applied: { num: bigint; delegation: Delegation }[] = [];
  for (const { authorization, authority: num } of signed) {
    const authority = net.ledger.account(num);
    if (authorization.chainId !== 0n && authorization.chainId !== CHAIN_ID) continue;
    if (!canAuthorize(authority) || authorization.nonce !== authority.ethereumNonce) continue;
    authority.ethereumNonce += 1n;
    const clears = authorization.address.every((byte) => byte === 0);
    authority.delegation = clears ? undefined : authorization.address;
    authority.delegatedStorage ??= new Map();
    applied.push({
      num: authority.num,
      delegation: { authority: authority.evmAddress, delegate: authorization.address },
    });
  }
  return applied;
}

/** The child records of a type 4 transaction: one CryptoUpdate per applied authorization. */
export async function writeDelegationChildren(
  net: Network,
  parent: SimItem,
  relay: bigint,
  applied: readonly { num: bigint; delegation: Delegation }[],
): Promise<void> {
  const parentId = parent.body.transactionID as Record<string, unknown>;
  for (const [i, { num, delegation }] of applied.entries()) {
    await net.submit({
      payer: relay,
      transactionId: { ...parentId, nonce: i + 1 },
      consensusNs: parent.consensusNs + BigInt(i + 1),
      body: { cryptoUpdateAccount: { accountIDToUpdate: accountPb(num), delegation_address: delegation.delegate } },
      price: undefined,
      execute: () => ({ record: { parent_consensus_timestamp: timestampPb(parent.consensusNs) } }),
    });
  }
}

export interface DelegatedCall {
  readonly account: Account & { evmAddress: Uint8Array };
  readonly sender: bigint;
  readonly data: Uint8Array;
  readonly gas: bigint;
}

/** A call to an account delegated to a Counter, from a live account `eligible` accepts: mostly an increment. */
export function planDelegatedCall(net: Network, eligible: (account: Account) => boolean): DelegatedCall | undefined {
  const num = net.ledger.users.find(net.random, (n) => {
    const account = net.ledger.account(n);
    return !account.deleted && account.delegation !== undefined && account.evmAddress !== undefined;
  });
  const account = num === undefined ? undefined : net.ledger.account(num);
  const sender = net.ledger.users.find(net.random, (n) => n !== num && eligible(net.ledger.account(n)), 12);
  if (!account?.evmAddress || sender === undefined) return undefined;
  const counter = artifact('Counter');
  const data = net.random.chance(0.05)
    ? callData(counter, 'increment(uint256)', [word(0n)])
    : callData(counter, 'increment(uint256)', [word(BigInt(net.random.int(1, 1000)))]);
  return { account: account as DelegatedCall['account'], sender, data, gas: net.random.pick([60_000n, 120_000n]) };
}

/** Runs a delegated call: the delegate's code on the account's storage, recorded as a call to the account. */
export async function runDelegatedCall(
  net: Network,
  evm: SimEvm,
  call: DelegatedCall & AuthorizedCall,
  consensusNs: bigint,
): Promise<{ outcome: EvmOutcome; result: Record<string, unknown>; sidecars: Record<string, unknown>[] }> {
  const { account, sender, data, gas, authorizationCount, delegations } = call;
  const outcome = await evm.transact({
    sender: net.ledger.canonicalAddress(sender),
    contract: account.evmAddress,
    create: false,
    data,
    gasLimit: gas,
    ...(authorizationCount ? { authorizationCount } : {}),
    ...(delegations ? { delegations } : {}),
  });
  account.delegatedStorage ??= new Map();
  applyStorage(account.delegatedStorage, outcome, hexOf(account.evmAddress));
  noteResult(net.ledger, consensusNs, { contract: account.num, sender, gasLimit: gas }, outcome);
  return {
    outcome,
    result: functionResult(account.num, sender, outcome, { gas, functionParameters: data, created: false }),
    sidecars: sidecarsOf(account.num, sender, outcome, { gas, input: data, created: false }),
  };
}
