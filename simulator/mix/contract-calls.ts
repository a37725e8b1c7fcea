/**
 * Calls to the deployed contracts, shared by the families that make them (HAPI ContractCall, EthereumTransaction):
 * what to call (a SimToken holder transfers part of its balance, sometimes more than it has, or approves; anyone
 * increments a Counter, a step of 0 or a reset by a stranger reverts), with which gas limit, and running it on the
 * EVM with the model following its storage, ERC-20 balances and gas.
 */
import { addressWord, artifact, callData, readUint, word } from '../evm/abi.ts';
import type { Delegation, EvmOutcome, SimEvm } from '../evm/evm.ts';
import { applyStorage, functionResult, sidecarsOf } from '../evm/records.ts';
import { longZeroAddress } from '../ledger/ids.ts';
import type { Account, Contract, Ledger } from '../ledger/ledger.ts';
import type { Network } from '../network/network.ts';
import { otherUser } from './pick.ts';

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface PlannedCall {
  readonly contract: Contract;
  readonly sender: bigint;
  readonly data: Uint8Array;
  readonly gas: bigint;
}

/** What a type 4 transaction adds to its call: its authorizations' count and the delegations applied before it. */
export interface AuthorizedCall {
  readonly authorizationCount?: number;
  readonly delegations?: readonly Delegation[];
  /** Tinybars an Ethereum transaction sends with the call. */
  readonly value?: bigint;
}

export const addressHex = (num: bigint) => `0x${Buffer.from(longZeroAddress(num)).toString('hex')}`;

/** A call to a random deployed contract from a live account `eligible` accepts, or undefined when none fits. */
export function planCall(net: Network, eligible: (account: Account) => boolean): PlannedCall | undefined {
  const num = net.ledger.contractPool.pick(net.random);
  const contract = num === undefined ? undefined : net.ledger.contracts.get(num);
  if (!contract) return undefined;
  const accepts = (account: Account) => !account.deleted && eligible(account);
  const plan = contract.kind === 'SimToken' ? planTokenCall(net, contract, accepts) : planCounterCall(net, accepts);
  if (!plan) return undefined;
  // Wallets set limits from an estimate plus a margin: with a tight one the EVM's gas is charged, with a loose one
  // Hedera's 80% of the limit. Every planned call needs less than 53,000.
  const gas = net.random.pick([60_000n, 120_000n, 120_000n, 300_000n]);
  return { contract, ...plan, gas };
}

function planTokenCall(
  net: Network,
  contract: Contract,
  eligible: (account: Account) => boolean,
): { sender: bigint; data: Uint8Array } | undefined {
  const token = artifact('SimToken');
  const holders = [...contract.erc20Balances].filter(
    ([account, balance]) => balance > 0n && eligible(net.ledger.account(account)),
  );
  const [sender, balance] = holders.length > 0 ? net.random.pick(holders) : [];
  if (sender === undefined || balance === undefined) return undefined;
  const to = otherUser(net, sender);
  if (!to) return undefined;
  const recipient = addressWord(net.ledger.canonicalAddress(to.num));
  if (net.random.chance(0.15)) {
    return { sender, data: callData(token, 'approve(address,uint256)', [recipient, word(balance / 2n)]) };
  }
  const amount = net.random.chance(0.05) ? balance + 1n : net.random.bigint(1n, balance > 3n ? balance / 3n : 1n);
  return { sender, data: callData(token, 'transfer(address,uint256)', [recipient, word(amount)]) };
}

function planCounterCall(
  net: Network,
  eligible: (account: Account) => boolean,
): { sender: bigint; data: Uint8Array } | undefined {
  const counter = artifact('Counter');
  const sender = net.ledger.users.find(net.random, (num) => eligible(net.ledger.account(num)), 12);
  if (sender === undefined) return undefined;
  if (net.random.chance(0.05)) return { sender, data: callData(counter, 'reset()', []) };
  const step = net.random.chance(0.04) ? 0n : BigInt(net.random.int(1, 1000));
  return { sender, data: callData(counter, 'increment(uint256)', [word(step)]) };
}

/** Runs a planned call from the sender's canonical address and applies it to the model. */
export async function runCall(
  net: Network,
  evm: SimEvm,
  plan: PlannedCall & AuthorizedCall,
  consensusNs: bigint,
): Promise<{ outcome: EvmOutcome; result: Record<string, unknown>; sidecars: Record<string, unknown>[] }> {
  const { contract, sender, data, gas, authorizationCount, delegations, value } = plan;
  const outcome = await evm.transact({
    sender: net.ledger.canonicalAddress(sender),
    contract: longZeroAddress(contract.num),
    create: false,
    data,
    gasLimit: gas,
    ...(value ? { value } : {}),
    ...(authorizationCount ? { authorizationCount } : {}),
    ...(delegations ? { delegations } : {}),
  });
  applyStorage(contract.storage, outcome, addressHex(contract.num));
  for (const log of outcome.logs) followTransfer(net.ledger, contract, log.topics, log.data);
  noteResult(net.ledger, consensusNs, { contract: contract.num, sender, gasLimit: gas }, outcome);
  return {
    outcome,
    result: functionResult(contract.num, sender, outcome, { gas, functionParameters: data, created: false }),
    sidecars: sidecarsOf(contract.num, sender, outcome, { gas, input: data, created: false }),
  };
}

export function noteResult(
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

/** ERC-20 balances by account, from a Transfer log's addresses (canonical: EVM address or long-zero). */
export function followTransfer(
  ledger: Ledger,
  contract: Contract,
  topics: readonly Uint8Array[],
  data: Uint8Array,
): void {
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
