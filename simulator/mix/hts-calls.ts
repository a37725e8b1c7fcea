/**
 * Contracts calling the Hedera Token Service: an HtsCaller contract (evm/contracts/HtsCaller.sol) forwards a
 * ContractCall's data to 0x167, so the system contract acts for the HtsCaller's own account: it associates itself
 * with a token of the ledger or dissociates from one. The answer, the gas and the records come from this model
 * (evm/hts-system.ts), as a consensus node writes them: the ContractCall's record and sidecars with the system
 * call as a second action, and a child record of the dispatched TokenAssociate / TokenDissociate (nonce 1, one
 * nanosecond later) carrying the system contract's result.
 *
 * A call is made only as the first transaction of a record file, so the ledger at the block before it is the one it
 * ran on: a mirror's historical call at that block must answer what the network answered.
 */

import type { SimEvm } from '../evm/evm.ts';
import {
  HTS_CONTRACT,
  type HtsOperation,
  htsCallData,
  htsSystemContract,
  type SystemCallRecord,
} from '../evm/hts-system.ts';
import { functionResult, sidecarsOf } from '../evm/records.ts';
import { accountPb, contractPb, i64, longZeroAddress, timestampPb, tokenPb } from '../ledger/ids.ts';
import type { Contract } from '../ledger/ledger.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import type { Network, Outcome, SimItem } from '../network/network.ts';
import { noteResult } from './contract-calls.ts';
import { CONTRACT_REVERT_EXECUTED, deployContract } from './contracts.ts';
import { HBAR, payerWith } from './pick.ts';

const SYSTEM = 4;
const OP_CALL = 1;
/** The system contract's price is most of the call's gas; 1,000,000 leaves room for the HtsCaller's own. */
const GAS = 1_000_000n;

/** One contract's system call, or its deployment when the ledger has no HtsCaller yet. */
export async function htsCall(net: Network, evm: SimEvm): Promise<boolean> {
  const callers = [...net.ledger.contracts.values()].filter((c) => c.kind === 'HtsCaller');
  if (callers.length === 0) return deployContract(net, evm, 'HtsCaller');
  if (net.fileStarted) return false;
  const caller = net.random.pick(callers);
  const pool = net.random.chance(0.6) ? net.ledger.fungibleTokens : net.ledger.nftTokens;
  const token = pool.pick(net.random);
  const sender = payerWith(net, 20n * HBAR);
  if (token === undefined || !sender) return false;
  const associated = net.ledger.tokenBalances.has(`${caller.num}/${token}`);
  // Mostly associations; a dissociation now and then, and a few that fail (associated twice, dissociated unassociated).
  const operation: HtsOperation = (associated ? net.random.chance(0.6) : net.random.chance(0.1))
    ? 'dissociateToken'
    : 'associateToken';
  const data = htsCallData(operation, longZeroAddress(caller.num), longZeroAddress(token));
  let system: SystemCallRecord | undefined;
  const parent = await net.submit({
    payer: sender.num,
    body: { contractCall: { contractID: contractPb(caller.num), gas: i64(GAS), functionParameters: data } },
    price: undefined,
    execute: async ({ consensusNs }): Promise<Outcome> => {
      const run = htsSystemContract(net.ledger);
      evm.systemContract = run.handler;
      const outcome = await evm
        .transact({
          sender: net.ledger.canonicalAddress(sender.num),
          contract: longZeroAddress(caller.num),
          create: false,
          data,
          gasLimit: GAS,
        })
        .finally(() => {
          evm.systemContract = undefined;
        });
      system = outcome.success ? run.calls[0] : undefined;
      if (outcome.success) run.apply();
      noteResult(net.ledger, consensusNs, { contract: caller.num, sender: sender.num, gasLimit: GAS }, outcome);
      const sidecars = sidecarsOf(caller.num, sender.num, outcome, { gas: GAS, input: data, created: false });
      return {
        ...(outcome.success ? {} : { status: CONTRACT_REVERT_EXECUTED }),
        fee:
          outcome.gasUsed * GAS_PRICE_TINYBARS + tinybarsOf(PRICE_TINYCENTS.contractCallBase, net.ledger.exchangeRate),
        receipt: { contractID: contractPb(caller.num) },
        record: {
          contractCallResult: functionResult(caller.num, sender.num, outcome, {
            gas: GAS,
            functionParameters: data,
            created: false,
          }),
        },
        sidecars: system ? withSystemAction(sidecars, caller, system) : sidecars,
      };
    },
  });
  if (system) await writeDispatchChild(net, parent, sender.num, caller, system);
  return true;
}

/** The contract actions with the system call after the top-level call, as the node's action tracer lists them. */
function withSystemAction(
  sidecars: Record<string, unknown>[],
  caller: Contract,
  system: SystemCallRecord,
): Record<string, unknown>[] {
  return sidecars.map((sidecar) => {
    const actions = (sidecar.actions as { contract_actions: Record<string, unknown>[] } | undefined)?.contract_actions;
    if (!actions) return sidecar;
    const action = {
      call_type: SYSTEM,
      calling_contract: contractPb(caller.num),
      gas: i64(system.gasLimit),
      input: system.input,
      recipient_contract: contractPb(HTS_CONTRACT),
      gas_used: i64(system.gasUsed),
      output: system.output,
      call_depth: 1,
      call_operation_type: OP_CALL,
    };
    return { actions: { contract_actions: [...actions, action] } };
  });
}

/** The dispatched transaction's record: its body, its status, and the system contract's result. */
async function writeDispatchChild(
  net: Network,
  parent: SimItem,
  payer: bigint,
  caller: Contract,
  system: SystemCallRecord,
): Promise<void> {
  const change = { account: accountPb(caller.num), tokens: [tokenPb(system.token)] };
  await net.submit({
    payer,
    transactionId: { ...(parent.body.transactionID as Record<string, unknown>), nonce: 1 },
    consensusNs: parent.consensusNs + 1n,
    body: system.operation === 'associateToken' ? { tokenAssociate: change } : { tokenDissociate: change },
    price: undefined,
    execute: () => ({
      status: system.status,
      record: {
        parent_consensus_timestamp: timestampPb(parent.consensusNs),
        contractCallResult: {
          contractID: contractPb(HTS_CONTRACT),
          contractCallResult: system.output,
          gasUsed: i64(system.gasUsed),
          gas: i64(system.gasLimit),
          functionParameters: system.input,
          sender_id: accountPb(caller.num),
        },
      },
    }),
  });
}
