/**
 * EthereumTransaction: an account with an ECDSA key signs an Ethereum transaction (type 0, 1, 2 or 4) calling one
 * of the deployed contracts or an account delegated to one (EIP-7702), and another account, the relay, submits it.
 * The relay pays the transaction's base price; the signer pays its gas at the network's price (its offered price is
 * never below it) and its nonce moves on, whether the call succeeds or reverts. A type 4 transaction also carries
 * authorizations, applied before its call (see delegations.ts). Some calls to a contract carry a value (sentValue).
 */

import { type EthereumType, signEthereumCall } from '../evm/ethereum-tx.ts';
import type { SimEvm } from '../evm/evm.ts';
import { contractPb, FEE_COLLECTOR, i64, longZeroAddress } from '../ledger/ids.ts';
import type { Account } from '../ledger/ledger.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import { singleKey } from '../network/keys.ts';
import type { Network, Outcome } from '../network/network.ts';
import { HbarTransfers } from '../network/transfers.ts';
import { type AuthorizedCall, planCall, runCall } from './contract-calls.ts';
import { CONTRACT_REVERT_EXECUTED } from './contracts.ts';
import {
  applyAuthorizations,
  planAuthorizations,
  planDelegatedCall,
  runDelegatedCall,
  writeDelegationChildren,
} from './delegations.ts';
import { HBAR, payerWith } from './pick.ts';

/** Weibars are tinybars × 10^10 to the EVM. */
const WEIBARS_PER_TINYBAR = 10_000_000_000n;

type Run = (
  extra: AuthorizedCall & { gas: bigint },
  consensusNs: bigint,
) => ReturnType<typeof runCall | typeof runDelegatedCall>;

/** What the transaction calls: a deployed contract, or now and then an account delegated to one. */
function chooseCall(
  net: Network,
  evm: SimEvm,
):
  | { sender: bigint; data: Uint8Array; gas: bigint; to: Uint8Array; called: bigint; run: Run; delegated: boolean }
  | undefined {
  const eligible = (account: Account) =>
    singleKey(account.key)?.privateKey !== undefined && account.balance >= 20n * HBAR;
  const delegated = net.random.chance(0.2) ? planDelegatedCall(net, eligible) : undefined;
  if (delegated) {
    const { account } = delegated;
    const run: Run = (extra, ns) => runDelegatedCall(net, evm, { ...delegated, ...extra }, ns);
    return { ...delegated, to: account.evmAddress, called: account.num, run, delegated: true };
  }
  const plan = planCall(net, eligible);
  if (!plan) return undefined;
  const run: Run = (extra, ns) => runCall(net, evm, { ...plan, ...extra }, ns);
  return { ...plan, to: longZeroAddress(plan.contract.num), called: plan.contract.num, run, delegated: false };
}

/**
 * Weibars a wallet sends with a contract call: mostly none; else under one tinybar (the EVM sees no value), a few
 * tinybars, or 10 hbar (10^19 weibar, whose top byte has its high bit set). The called functions are not payable,
 * so a call carrying a tinybar or more reverts and moves no hbar.
 */
function sentValue(net: Network): bigint {
  if (!net.random.chance(0.3)) return 0n;
  return net.random.pick([1n, 5n * WEIBARS_PER_TINYBAR, 10n ** 19n]);
}

export async function ethereumTransaction(net: Network, evm: SimEvm): Promise<boolean> {
  const call = chooseCall(net, evm);
  const signer = call && net.ledger.account(call.sender);
  const privateKey = singleKey(signer?.key)?.privateKey;
  const relay = call && payerWith(net, 20n * HBAR, call.sender);
  if (!call || !signer || !privateKey || !relay) return false;
  const type = net.random.pick<EthereumType>([0, 1, 2, 4]);
  const authorizations = type === 4 ? planAuthorizations(net, signer.num) : [];
  if (type === 4 && authorizations.length === 0) return false;
  const price = GAS_PRICE_TINYBARS * WEIBARS_PER_TINYBAR * (net.random.chance(0.5) ? 1n : 2n);
  const value = call.delegated ? 0n : sentValue(net);
  const tinybars = value / WEIBARS_PER_TINYBAR;
  const nonce = signer.ethereumNonce;
  // Each authorization costs 25,000 intrinsic gas: the limit grows by that, as a wallet's estimate would.
  const gasLimit = call.gas + 25_000n * BigInt(authorizations.length);
  const { raw, hash } = signEthereumCall(
    {
      type,
      nonce,
      gasPrice: price,
      gasLimit,
      to: call.to,
      value,
      data: call.data,
      authorizations: authorizations.map((a) => a.authorization),
    },
    privateKey,
  );
  let applied: ReturnType<typeof applyAuthorizations> = [];
  const parent = await net.submit({
    payer: relay.num,
    body: { ethereumTransaction: { ethereum_data: raw, max_gas_allowance: i64(gasLimit * GAS_PRICE_TINYBARS) } },
    price: undefined,
    execute: async ({ consensusNs }): Promise<Outcome> => {
      signer.ethereumNonce = nonce + 1n;
      signer.reportedNonce = nonce + 1n;
      applied = applyAuthorizations(net, authorizations);
      const { outcome, result, sidecars } = await call.run(
        {
          gas: gasLimit,
          authorizationCount: authorizations.length,
          delegations: applied.map((a) => a.delegation),
          value: tinybars,
        },
        consensusNs,
      );
      const gasCost = outcome.gasUsed * GAS_PRICE_TINYBARS;
      return {
        ...(outcome.success ? {} : { status: CONTRACT_REVERT_EXECUTED }),
        fee: tinybarsOf(PRICE_TINYCENTS.contractCallBase, net.ledger.exchangeRate),
        transfers: new HbarTransfers().add(signer.num, -gasCost).add(FEE_COLLECTOR, gasCost),
        receipt: { contractID: contractPb(call.called) },
        record: {
          contractCallResult: {
            ...result,
            ...(tinybars > 0n ? { amount: i64(tinybars) } : {}),
            signer_nonce: { value: i64(nonce + 1n) },
          },
          ethereum_hash: hash,
        },
        sidecars,
      };
    },
  });
  await writeDelegationChildren(net, parent, relay.num, applied);
  return true;
}
