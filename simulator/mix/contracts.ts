/**
 * Smart contract transactions executed by a real EVM: deployments of the SimToken ERC-20 and the Counter,
 * and calls to them (transfers, approvals, increments), a few of which revert. Gas is paid in hbar at the
 * network's gas price plus a small base fee.
 */

import { addressWord, artifact, callData, encodeStringsAndUint, fromHex, readUint, word } from '../evm/abi.ts';
import type { EvmOutcome, SimEvm } from '../evm/evm.ts';
import { applyStorage, functionResult, sidecarsOf } from '../evm/records.ts';
import { contractPb, i64, longZeroAddress } from '../ledger/ids.ts';
import type { Contract, Ledger } from '../ledger/ledger.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import type { Network, Outcome } from '../network/network.ts';
import { HBAR, maybeMemo, otherUser, payerWith } from './pick.ts';

const CONTRACT_REVERT_EXECUTED = 33;
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

function gasFee(net: Network, outcome: EvmOutcome, base: bigint): bigint {
  return outcome.gasUsed * GAS_PRICE_TINYBARS + tinybarsOf(base, net.ledger.exchangeRate);
}

function noteResult(
  ledger: Ledger,
  consensusNs: bigint,
  call: { contract: bigint; sender: bigint; gasLimit: bigint },
  outcome: EvmOutcome,
): void {
  ledger.contractResults.push({
    consensusNs,
    ...call,
    gasUsed: outcome.gasUsed,
    evmGasUsed: outcome.evmGasUsed,
    success: outcome.success,
  });
}

export async function deployContract(net: Network, evm: SimEvm, kind?: 'SimToken' | 'Counter'): Promise<boolean> {
  const creator = payerWith(net, 300n * HBAR);
  if (!creator) return false;
  const which = kind ?? (net.random.chance(0.5) ? 'SimToken' : 'Counter');
  const code = artifact(which);
  const word0 = net.random.words(1);
  const supply = net.random.bigint(1_000_000n, 1_000_000_000n) * 1_000_000n;
  const parameters =
    which === 'SimToken'
      ? encodeStringsAndUint(`${word0} token`, word0.slice(0, 3).toUpperCase(), supply)
      : word(BigInt(net.random.int(0, 100)));
  const initcode = fromHex(code.initcode);
  const gas = which === 'SimToken' ? 1_500_000n : 400_000n;
  const memo = maybeMemo(net, 0.5);
  await net.submit({
    payer: creator.num,
    body: {
      contractCreateInstance: {
        initcode,
        gas: i64(gas),
        autoRenewPeriod: { seconds: '7776000' },
        constructorParameters: parameters,
        ...(memo ? { memo } : {}),
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
      };
      applyStorage(contract.storage, outcome, addressHex(num));
      for (const log of outcome.logs) followTransfer(net.ledger, contract, log.topics, log.data);
      net.ledger.contracts.set(num, contract);
      net.ledger.contractPool.add(num);
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

const addressHex = (num: bigint) => `0x${Buffer.from(longZeroAddress(num)).toString('hex')}`;

interface PlannedCall {
  readonly sender: bigint;
  readonly data: Uint8Array;
}

/** What to call on a SimToken: a holder transfers part of its balance (sometimes more than it has) or approves. */
function planTokenCall(net: Network, contract: Contract): PlannedCall | undefined {
  const token = artifact('SimToken');
  const holders = [...contract.erc20Balances].filter(
    ([account, balance]) => balance > 0n && !net.ledger.account(account).deleted,
  );
  const [sender, balance] = holders.length > 0 ? net.random.pick(holders) : [];
  if (sender === undefined || balance === undefined || net.ledger.account(sender).balance < 20n * HBAR)
    return undefined;
  const to = otherUser(net, sender);
  if (!to) return undefined;
  if (net.random.chance(0.15)) {
    return {
      sender,
      data: callData(token, 'approve(address,uint256)', [
        addressWord(net.ledger.canonicalAddress(to.num)),
        word(balance / 2n),
      ]),
    };
  }
  const amount = net.random.chance(0.05) ? balance + 1n : net.random.bigint(1n, balance > 3n ? balance / 3n : 1n);
  return {
    sender,
    data: callData(token, 'transfer(address,uint256)', [
      addressWord(net.ledger.canonicalAddress(to.num)),
      word(amount),
    ]),
  };
}

/** Counter: anyone increments by 1–1000; a step of 0 or a reset by a stranger reverts. */
function planCounterCall(net: Network): PlannedCall | undefined {
  const counter = artifact('Counter');
  const sender = payerWith(net, 20n * HBAR);
  if (!sender) return undefined;
  if (net.random.chance(0.05)) return { sender: sender.num, data: callData(counter, 'reset()', []) };
  const step = net.random.chance(0.04) ? 0n : BigInt(net.random.int(1, 1000));
  return { sender: sender.num, data: callData(counter, 'increment(uint256)', [word(step)]) };
}

export async function callContract(net: Network, evm: SimEvm): Promise<boolean> {
  const num = net.ledger.contractPool.pick(net.random);
  const contract = num === undefined ? undefined : net.ledger.contracts.get(num);
  if (!contract) return false;
  const plan = contract.kind === 'SimToken' ? planTokenCall(net, contract) : planCounterCall(net);
  if (!plan) return false;
  // Wallets set limits from an estimate plus a margin: with a tight one the EVM's gas is charged, with a loose one
  // Hedera's 80% of the limit. Every planned call needs less than 53,000.
  const gas = net.random.pick([60_000n, 120_000n, 120_000n, 300_000n]);
  await net.submit({
    payer: plan.sender,
    body: { contractCall: { contractID: contractPb(contract.num), gas: i64(gas), functionParameters: plan.data } },
    price: undefined,
    execute: async ({ consensusNs }): Promise<Outcome> => {
      const outcome = await evm.transact({
        sender: net.ledger.canonicalAddress(plan.sender),
        contract: longZeroAddress(contract.num),
        create: false,
        data: plan.data,
        gasLimit: gas,
      });
      applyStorage(contract.storage, outcome, addressHex(contract.num));
      for (const log of outcome.logs) followTransfer(net.ledger, contract, log.topics, log.data);
      noteResult(net.ledger, consensusNs, { contract: contract.num, sender: plan.sender, gasLimit: gas }, outcome);
      return {
        ...(outcome.success ? {} : { status: CONTRACT_REVERT_EXECUTED }),
        fee: gasFee(net, outcome, PRICE_TINYCENTS.contractCallBase),
        receipt: { contractID: contractPb(contract.num) },
        record: {
          contractCallResult: functionResult(contract.num, plan.sender, outcome, {
            gas,
            functionParameters: plan.data,
            created: false,
          }),
        },
        sidecars: sidecarsOf(contract.num, plan.sender, outcome, { gas, input: plan.data, created: false }),
      };
    },
  });
  return true;
}

/** ERC-20 balances by account, from a Transfer log's addresses (canonical: EVM address or long-zero). */
function followTransfer(ledger: Ledger, contract: Contract, topics: readonly Uint8Array[], data: Uint8Array): void {
  const [topic0, from, to] = topics;
  if (!topic0 || !from || !to || `0x${Buffer.from(topic0).toString('hex')}` !== TRANSFER_TOPIC) return;
  const value = readUint(data);
  const holder = (topic: Uint8Array) => {
    const num = ledger.entityOfAddress(topic.subarray(12));
    if (num === undefined)
      throw new Error(`simulator: Transfer log names unknown address ${Buffer.from(topic).toString('hex')}`);
    return num;
  };
  const fromNum = holder(from);
  const toNum = holder(to);
  if (fromNum !== 0n) contract.erc20Balances.set(fromNum, (contract.erc20Balances.get(fromNum) ?? 0n) - value);
  contract.erc20Balances.set(toNum, (contract.erc20Balances.get(toNum) ?? 0n) + value);
}
