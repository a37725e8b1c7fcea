/**
 * A scheduled ContractCall run when its schedule executes (the node dispatches it as a child ContractCall paid by
 * the schedule's payer): a frame one deeper than the system contract's, from the payer to the contract with the
 * schedule's gas, value (tinybars) and call data, on the call's state, its writes kept when it succeeds and undone
 * when it fails. Its gas is the payer's, not the calling frame's. ORIGIN inside it stays the request's sender; the
 * node's child transaction has the payer.
 */
import { Message } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import type { EvmEntity } from '../types.ts';
import { frameDepth } from './frames.ts';
import type { HtsCall } from './hts-context.ts';
import type { ScheduledContractCall } from './scheduled-body.ts';

export async function runScheduledCall(call: HtsCall, payer: EvmEntity, body: ScheduledContractCall): Promise<void> {
  const message = new Message({
    caller: new Address(call.reader.canonicalAddress(payer)),
    to: new Address(body.to),
    value: body.value,
    data: body.data,
    gasLimit: body.gas,
    depth: frameDepth(call.evm) + 1,
  });
  await call.evm.runCall({ message });
}
