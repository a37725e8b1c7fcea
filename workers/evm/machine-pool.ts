/**
 * EVMs kept per isolate (or Durable Object) between requests. Making one costs about a millisecond (the hardfork's
 * parameters, opcode and precompile tables), more than a cached call itself, so a run borrows an idle one of its
 * hardfork and chain and gives it back. A machine carries no session between runs: each run binds its session
 * (ledger, block, system contracts) and starts from a clean write overlay.
 */
import { type Common, createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, type PrecompileFunc, paramsEVM } from '@ethereumjs/evm';
import { hederaCreates } from './creates.ts';
import { redirectAccountCalls } from './entity-code.ts';
import { hederaOpcodes } from './hedera-opcodes.ts';
import { LedgerState, type StateSource } from './ledger-state.ts';
import { systemContracts, trackCallFrames } from './system/index.ts';
import type { LedgerReader } from './types.ts';

/**
 * EIP-7702 on top of Cancun: an account with a `delegation_address` runs its delegate's code. Code delegation
 * came to Hedera long after the EVM versions older than Cancun, so their blocks have no delegations.
 */
export const CODE_DELEGATION_EIP = 7702;
/** Idle machines kept per hardfork and chain. */
const MAX_IDLE = 4;

/** One session's part of a run: what the state reads, what the opcodes answer, the system contracts' functions. */
export interface RunBinding extends StateSource {
  readonly blockNumber: bigint;
  blockHash(number: bigint): Promise<bigint | undefined>;
  /** By the precompile's address (`0x` + 40 hex digits). */
  readonly systemContracts: ReadonlyMap<string, PrecompileFunc>;
  /** The long-zero address of an entity number in the session's shard and realm. */
  entityAddress(num: bigint): Uint8Array;
}

export interface Machine {
  readonly evm: EVM;
  readonly state: LedgerState;
  /** Starts a run of `binding`: a clean overlay, journal and transient storage. */
  bind(binding: RunBinding, realBalanceId: bigint | undefined): void;
  /** A failed read of the account-proxy check during the run, if any. */
  takeError(): unknown;
  /** Ends the run: the machine keeps nothing of its session while idle. */
  unbind(): void;
}

const commons = new Map<string, Common>();

/** The rules of a hardfork on a chain, shared by every machine of both. */
export function commonOf(hardfork: Hardfork, chainId: bigint): Common {
  const key = `${hardfork}/${chainId}`;
  let common = commons.get(key);
  if (!common) {
    common = createCustomCommon({ chainId: Number(chainId) }, Mainnet, {
      hardfork,
      eips: hardfork === Hardfork.Cancun ? [CODE_DELEGATION_EIP] : [],
      params: paramsEVM,
    });
    commons.set(key, common);
  }
  return common;
}

/** A reader for making the precompile list: its addresses are fixed, its functions are the session's. */
const unbound = new Proxy({} as LedgerReader, {
  get() {
    throw new Error('a system contract ran outside a session');
  },
});

async function createMachine(common: Common): Promise<Machine> {
  const state = new LedgerState(common);
  let binding: RunBinding | undefined;
  const bound = (): RunBinding => {
    if (!binding) throw new Error('the machine is not bound to a session');
    return binding;
  };
  const customPrecompiles = systemContracts(unbound).map(({ address }) => {
    const key = address.toString();
    const call: PrecompileFunc = (input) => {
      const run = bound().systemContracts.get(key);
      if (!run) throw new Error(`no system contract at ${key}`);
      return run(input);
    };
    return { address, function: call };
  });
  const evm = await createEVM({
    common,
    stateManager: state,
    customOpcodes: hederaOpcodes(common, {
      state: () => state,
      blockNumber: () => bound().blockNumber,
      blockHash: (number) => bound().blockHash(number),
    }),
    customPrecompiles,
  });
  trackCallFrames(evm);
  hederaCreates(evm, state, (num) => bound().entityAddress(num));
  const redirects = redirectAccountCalls(evm, state);
  return {
    evm,
    state,
    bind(next, realBalanceId) {
      binding = next;
      state.reset(next, realBalanceId);
      evm.journal.cleanJournal();
      evm.transientStorage.clear();
      redirects.takeError();
    },
    takeError: redirects.takeError,
    unbind() {
      binding = undefined;
      state.unbind();
    },
  };
}

const idle = new Map<Common, Machine[]>();

/** Runs `work` on an idle machine of `common` (or a new one), then keeps the machine for the next run. */
export async function withMachine<T>(common: Common, work: (machine: Machine) => Promise<T>): Promise<T> {
  const machines = idle.get(common) ?? [];
  idle.set(common, machines);
  const machine = machines.pop() ?? (await createMachine(common));
  const result = await work(machine);
  // Only after a run that ended: a failed one may leave the EVM inside a call, and its machine is dropped.
  machine.unbind();
  if (machines.length < MAX_IDLE) machines.push(machine);
  return result;
}
