/**
 * Smart contract transactions executed by a real EVM: deployments of the SimToken ERC-20 and the Counter,
 * and calls to them (transfers, approvals, increments), a few of which revert. Gas is paid in hbar at the
 * network's gas price plus a small base fee.
 */

import { artifact, encodeStringsAndUint, fromHex, word } from '../evm/abi.ts';
import type { EvmOutcome, SimEvm } from '../evm/evm.ts';
import { applyStorage, functionResult, sidecarsOf } from '../evm/records.ts';
import { contractPb, i64, longZeroAddress } from '../ledger/ids.ts';
import type { Contract } from '../ledger/ledger.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import type { Network, Outcome } from '../network/network.ts';
import { addressHex, followTransfer, noteResult, planCall, runCall } from './contract-calls.ts';
import { HBAR, maybeMemo, payerWith } from './pick.ts';

export const CONTRACT_REVERT_EXECUTED = 33;

/** Gas at the network's price, plus the transaction's base price. */
function gasFee(net: Network, outcome: EvmOutcome, base: bigint): bigint {
  return outcome.gasUsed * GAS_PRICE_TINYBARS + tinybarsOf(base, net.ledger.exchangeRate);
}

/**
 * Deploys a contract; an HtsCaller is called only by the HTS family (mix/hts-calls.ts), so it stays out of the pool
 * the other contract calls draw from.
 */
export async function deployContract(
  net: Network,
  evm: SimEvm,
  kind?: 'SimToken' | 'Counter' | 'HtsCaller',
): Promise<boolean> {
  const creator = payerWith(net, 300n * HBAR);
  if (!creator) return false;
  const which = kind ?? (net.random.chance(0.5) ? 'SimToken' : 'Counter');
  const code = artifact(which);
  const word0 = net.random.words(1);
  const supply = net.random.bigint(1_000_000n, 1_000_000_000n) * 1_000_000n;
  const parameters =
    which === 'SimToken'
      ? encodeStringsAndUint(`${word0} token`, word0.slice(0, 3).toUpperCase(), supply)
      : which === 'Counter'
        ? word(BigInt(net.random.int(0, 100)))
        : new Uint8Array();
  const initcode = fromHex(code.initcode);
  const gas = which === 'SimToken' ? 1_500_000n : which === 'Counter' ? 400_000n : 200_000n;
  // The memo names the contract, so that its readers (GET /api/v1/contracts) tell the kinds apart; a wallet's memo
  // words, when the mix draws some, follow it.
  const words = maybeMemo(net, 0.5);
  const memo = words ? `${which}: ${words}` : which;
  await net.submit({
    payer: creator.num,
    body: {
      contractCreateInstance: {
        initcode,
        gas: i64(gas),
        autoRenewPeriod: { seconds: '7776000' },
        constructorParameters: parameters,
        memo,
      },
    },
    price: undefined,
    execute: async ({ consensusNs }): Promise<Outcome> => {
      const num = net.ledger.allocateEntity();
      const full = new Uint8Array(initcode.length + parameters.length);
      full.set(initcode);
      full.set(parameters, initcode.length);
      net.ledger.claimEvmAddress(longZeroAddress(num), num);
      const outcome = await evm.transact({
        sender: net.ledger.canonicalAddress(creator.num),
        contract: longZeroAddress(num),
        create: true,
        data: full,
        gasLimit: gas,
      });
      if (!outcome.success) throw new Error(`simulator: ${which} deployment failed (${outcome.error})`);
      const contract: Contract = {
        num,
        kind: which,
        creator: creator.num,
        storage: new Map(),
        erc20Balances: new Map(),
        runtime: outcome.runtime,
        balance: 0n,
      };
      applyStorage(contract.storage, outcome, addressHex(num));
      for (const log of outcome.logs) followTransfer(net.ledger, contract, log.topics, log.data);
      net.ledger.contracts.set(num, contract);
      if (which !== 'HtsCaller') net.ledger.contractPool.add(num);
      noteResult(net.ledger, consensusNs, { contract: num, sender: creator.num, gasLimit: gas }, outcome);
      return {
        fee: gasFee(net, outcome, PRICE_TINYCENTS.contractCreate),
        receipt: { contractID: contractPb(num) },
        record: {
          contractCreateResult: functionResult(num, creator.num, outcome, {
            gas,
            functionParameters: parameters,
            created: true,
          }),
        },
        sidecars: sidecarsOf(num, creator.num, outcome, {
          gas,
          input: full,
          created: true,
          initcode: full,
          runtime: outcome.runtime,
        }),
      };
    },
  });
  return true;
}

/** A ContractCall: an account calls a contract through HAPI, paying gas at the network's price. */
export async function callContract(net: Network, evm: SimEvm): Promise<boolean> {
  const plan = planCall(net, (account) => account.balance >= 20n * HBAR);
  if (!plan) return false;
  await net.submit({
    payer: plan.sender,
    body: {
      contractCall: { contractID: contractPb(plan.contract.num), gas: i64(plan.gas), functionParameters: plan.data },
    },
    price: undefined,
    execute: async ({ consensusNs }): Promise<Outcome> => {
      const { outcome, result, sidecars } = await runCall(net, evm, plan, consensusNs);
      return {
        ...(outcome.success ? {} : { status: CONTRACT_REVERT_EXECUTED }),
        fee: gasFee(net, outcome, PRICE_TINYCENTS.contractCallBase),
        receipt: { contractID: contractPb(plan.contract.num) },
        record: { contractCallResult: result },
        sidecars,
      };
    },
  });
  return true;
}
