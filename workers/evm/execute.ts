/**
 * One synthetic ContractCall or ContractCreate on a fresh EVM and write overlay: the intrinsic gas first, the
 * EIP-2929 warm set of a transaction, the call or the constructor, then the code deposit of a create and the
 * refund.
 */
import { Hardfork } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import { Account, Address } from '@ethereumjs/util';
import { hexOfBytes } from '../../db/bytea.ts';
import { gasAfterRefund, intrinsicGas } from './gas.ts';
import type { LedgerState } from './ledger-state.ts';
import { statusOfError } from './status.ts';
import type { CallOutcome, CodeDelegation } from './types.ts';

/** EIP-170: the largest runtime code a create may deposit. */
const MAX_CODE_SIZE = 24_576;
const CODE_DEPOSIT_GAS_PER_BYTE = 200n;
/** EIP-3541: runtime code may not start with 0xEF. */
const EOF_MAGIC = 0xef;

export interface Execution {
  readonly evm: EVM;
  readonly state: LedgerState;
  readonly sender: Uint8Array;
  /** The contract called, or for a create the address the new contract gets. */
  readonly to: Uint8Array;
  readonly create: boolean;
  readonly data: Uint8Array;
  readonly value: bigint;
  readonly gas: bigint;
  /** COINBASE: warm from Shanghai on (EIP-3651). */
  readonly coinbase: Uint8Array;
  readonly block: NonNullable<Parameters<EVM['runCall']>[0]>['block'];
  readonly authorizationCount?: number;
  readonly delegations?: readonly CodeDelegation[];
}

/** EIP-7702: intrinsic gas per authorization, as if each created its authority. */
const PER_EMPTY_ACCOUNT_COST = 25_000n;
/** EIP-7702: an authorization of an existing authority costs this; the rest is refunded. */
const PER_AUTH_BASE_COST = 12_500n;
const DELEGATION_PREFIX = [0xef, 0x01, 0x00];

/** Sets each authority's code to its delegation designator (or none), warm; the refund for its authorization. */
async function delegate(execution: Execution): Promise<bigint> {
  let refund = 0n;
  for (const { authority, delegate } of execution.delegations ?? []) {
    const code = delegate.every((byte) => byte === 0)
      ? new Uint8Array()
      : Uint8Array.from([...DELEGATION_PREFIX, ...delegate]);
    const address = new Address(authority);
    if (!(await execution.state.getAccount(address))) await execution.state.putAccount(address, new Account());
    await execution.state.putCode(address, code);
    execution.evm.journal.addAlwaysWarmAddress(hexOfBytes(authority));
    refund += PER_EMPTY_ACCOUNT_COST - PER_AUTH_BASE_COST;
  }
  return refund;
}

const failure = (status: string, gasUsed: bigint, output: Uint8Array = new Uint8Array()): CallOutcome => ({
  ok: false,
  status,
  output,
  gasUsed,
  childStatuses: [],
});

function warm(execution: Execution): void {
  const { evm } = execution;
  const addresses = [execution.sender, execution.to].map(hexOfBytes);
  if (evm.common.gteHardfork(Hardfork.Shanghai)) addresses.push(hexOfBytes(execution.coinbase));
  for (const address of addresses) evm.journal.addAlwaysWarmAddress(address);
  for (const address of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(address);
}

export async function execute(execution: Execution): Promise<CallOutcome> {
  const { evm, state, create, data, gas } = execution;
  const intrinsic =
    intrinsicGas(data, create, evm.common.gteHardfork(Hardfork.Shanghai)) +
    PER_EMPTY_ACCOUNT_COST * BigInt(execution.authorizationCount ?? 0);
  if (intrinsic > gas) return failure('INSUFFICIENT_GAS', gas);
  warm(execution);
  // Counted before the call runs, so a failed call keeps it; the call's own refunds go with a failure.
  const authorizationRefund = await delegate(execution);
  const to = new Address(execution.to);
  const sender = new Address(execution.sender);
  if (create) await state.putAccount(to, new Account(1n));
  // Errors other than the EVM's own (a failed read, a system contract's 501) leave the EVM and fail the request.
  const result = await evm.runCall({
    block: execution.block,
    caller: sender,
    origin: sender,
    to,
    value: execution.value,
    gasLimit: gas - intrinsic,
    skipNonceIncrement: true,
    ...(create ? { code: data, data: new Uint8Array() } : { data }),
  });
  const { execResult } = result;
  const used = intrinsic + execResult.executionGasUsed;
  if (execResult.exceptionError) {
    const status = statusOfError(execResult.exceptionError.error);
    const charged = gasAfterRefund(used, authorizationRefund);
    return failure(status, charged, status === 'CONTRACT_REVERT_EXECUTED' ? execResult.returnValue : undefined);
  }
  const refund = (execResult.gasRefund ?? 0n) + authorizationRefund;
  if (!create) return { ok: true, output: execResult.returnValue, gasUsed: gasAfterRefund(used, refund) };
  const runtime = execResult.returnValue;
  const deployed = used + BigInt(runtime.length) * CODE_DEPOSIT_GAS_PER_BYTE;
  if (deployed > gas) return failure('INSUFFICIENT_GAS', gas);
  if (runtime.length > MAX_CODE_SIZE || runtime[0] === EOF_MAGIC) {
    return failure('CONTRACT_EXECUTION_EXCEPTION', gas);
  }
  await state.putCode(to, runtime);
  return { ok: true, output: runtime, gasUsed: gasAfterRefund(deployed, refund) };
}
