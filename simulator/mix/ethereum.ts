/**
 * EthereumTransaction: an account with an ECDSA key signs an Ethereum transaction (type 0, 1 or 2) calling one of
 * the deployed contracts, and another account, the relay, submits it. The relay pays the transaction's base price;
 * the signer pays its gas at the network's price (its offered price is never below it) and its nonce moves on,
 * whether the call succeeds or reverts.
 */

import { type EthereumType, signEthereumCall } from '../evm/ethereum-tx.ts';
import type { SimEvm } from '../evm/evm.ts';
import { contractPb, FEE_COLLECTOR, i64, longZeroAddress } from '../ledger/ids.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import type { Network, Outcome } from '../network/network.ts';
import { HbarTransfers } from '../network/transfers.ts';
import { planCall, runCall } from './contract-calls.ts';
import { CONTRACT_REVERT_EXECUTED } from './contracts.ts';
import { HBAR, payerWith } from './pick.ts';

/** Weibars are tinybars × 10^10 to the EVM. */
const WEIBARS_PER_TINYBAR = 10_000_000_000n;

export async function ethereumTransaction(net: Network, evm: SimEvm): Promise<boolean> {
  const plan = planCall(net, (account) => account.key?.privateKey !== undefined && account.balance >= 20n * HBAR);
  const signer = plan && net.ledger.account(plan.sender);
  const privateKey = signer?.key?.privateKey;
  const relay = plan && payerWith(net, 20n * HBAR, plan.sender);
  if (!plan || !signer || !privateKey || !relay) return false;
  const type = net.random.pick<EthereumType>([0, 1, 2]);
  const price = GAS_PRICE_TINYBARS * WEIBARS_PER_TINYBAR * (net.random.chance(0.5) ? 1n : 2n);
  const nonce = signer.ethereumNonce;
  const { raw, hash } = signEthereumCall(
    { type, nonce, gasPrice: price, gasLimit: plan.gas, to: longZeroAddress(plan.contract.num), data: plan.data },
    privateKey,
  );
  await net.submit({
    payer: relay.num,
    body: { ethereumTransaction: { ethereum_data: raw, max_gas_allowance: i64(plan.gas * GAS_PRICE_TINYBARS) } },
    price: undefined,
    execute: async ({ consensusNs }): Promise<Outcome> => {
      const { outcome, result, sidecars } = await runCall(net, evm, plan, consensusNs);
      signer.ethereumNonce = nonce + 1n;
      const gasCost = outcome.gasUsed * GAS_PRICE_TINYBARS;
      return {
        ...(outcome.success ? {} : { status: CONTRACT_REVERT_EXECUTED }),
        fee: tinybarsOf(PRICE_TINYCENTS.contractCallBase, net.ledger.exchangeRate),
        transfers: new HbarTransfers().add(signer.num, -gasCost).add(FEE_COLLECTOR, gasCost),
        receipt: { contractID: contractPb(plan.contract.num) },
        record: {
          contractCallResult: { ...result, signer_nonce: { value: i64(nonce + 1n) } },
          ethereum_hash: hash,
        },
        sidecars,
      };
    },
  });
  return true;
}
