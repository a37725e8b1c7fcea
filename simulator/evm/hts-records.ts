/**
 * What a transaction's calls to the HTS system contract add to its records, as a consensus node writes them: each
 * system call as a contract action in the sidecar (a SYSTEM call from the calling contract at its depth), and each
 * dispatched transaction as a child record after the parent (nonce 1, 2…, one nanosecond apart) with its body, its
 * status, its token and hbar transfers and the system contract's result. A dispatch a reverting frame took back is
 * recorded REVERTED_SUCCESS without its transfers; a failed one keeps its code.
 */
import { accountPb, contractPb, FEE_COLLECTOR, i64, timestampPb } from '../ledger/ids.ts';
import type { Network, SimItem } from '../network/network.ts';
import { HbarTransfers } from '../network/transfers.ts';
import { HTS_CONTRACT, type SystemCallRecord } from './hts-system.ts';

const SYSTEM = 4;
const OP_CALL = 1;
const SUCCESS = 22;
const REVERTED_SUCCESS = 280;

/** The contract actions with the system calls after the transaction's own, as the node's action tracer lists them. */
export function withSystemActions(
  sidecars: readonly Record<string, unknown>[],
  calls: readonly SystemCallRecord[],
): Record<string, unknown>[] {
  return sidecars.map((sidecar) => {
    const actions = (sidecar.actions as { contract_actions: Record<string, unknown>[] } | undefined)?.contract_actions;
    if (!actions || calls.length === 0) return sidecar;
    const system = calls.map((call) => ({
      call_type: SYSTEM,
      calling_contract: contractPb(call.caller),
      gas: i64(call.gasLimit),
      input: call.input,
      recipient_contract: contractPb(HTS_CONTRACT),
      gas_used: i64(call.gasUsed),
      output: call.output,
      call_depth: call.depth,
      call_operation_type: OP_CALL,
    }));
    return { actions: { contract_actions: [...actions, ...system] } };
  });
}

/** The creation fees the calls that stand charged their contracts, paid to the fee collector. */
export function systemFees(calls: readonly SystemCallRecord[]): HbarTransfers {
  const transfers = new HbarTransfers();
  for (const call of calls) {
    if (call.reverted || call.fee === 0n) continue;
    transfers.add(call.caller, -call.fee).add(FEE_COLLECTOR, call.fee);
  }
  return transfers;
}

/**
 * Writes the dispatched transactions' records after `parent`, paid by its payer, nonces from `firstNonce` on (the
 * consensus times follow the nonces); answers them in order.
 */
export async function writeDispatchChildren(
  net: Network,
  parent: SimItem,
  payer: bigint,
  calls: readonly SystemCallRecord[],
  firstNonce = 1,
): Promise<SimItem[]> {
  const children: SimItem[] = [];
  for (const call of calls) {
    const body = call.body;
    if (!body) continue;
    const nonce = firstNonce + children.length;
    const undone = call.reverted && call.status === SUCCESS;
    const standing = !call.reverted;
    children.push(
      await net.submit({
        payer,
        transactionId: { ...(parent.body.transactionID as Record<string, unknown>), nonce },
        consensusNs: parent.consensusNs + BigInt(nonce),
        body,
        price: undefined,
        execute: () => ({
          status: undone ? REVERTED_SUCCESS : call.status,
          receipt: standing ? call.receipt : {},
          ...(standing && !call.tokens.isEmpty ? { tokens: call.tokens } : {}),
          ...(standing && call.hbar.amounts.size > 0 ? { transfers: call.hbar } : {}),
          record: {
            ...(standing ? call.record : {}),
            parent_consensus_timestamp: timestampPb(parent.consensusNs),
            contractCallResult: {
              contractID: contractPb(HTS_CONTRACT),
              contractCallResult: call.output,
              gasUsed: i64(call.gasUsed),
              gas: i64(call.gasLimit),
              functionParameters: call.input,
              sender_id: accountPb(call.caller),
            },
          },
        }),
      }),
    );
  }
  return children;
}
