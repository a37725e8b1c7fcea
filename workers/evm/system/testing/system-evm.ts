/**
 * For tests: a real @ethereumjs EVM (Cancun, chain 296) with the system contracts of a ledger reader as its
 * precompiles, on the state a call runs on (a LedgerState over the reader's ledger, its entity numbers included),
 * with no code of the ledger's own but the redirect proxy code at the token, account and schedule addresses a test
 * names, so calls to those addresses run through the proxy as they do on Hedera.
 */
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, type ExecResult } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import type { RedirectKind } from '../../../../common/redirect-bytecode.ts';
import { LedgerState, type StateSource } from '../../ledger-state.ts';
import { firstNewEntityNumber } from '../../next-entity-id.ts';
import { SlotReader } from '../../slot-reader.ts';
import type { LedgerReader } from '../../types.ts';
import { address, encode, int, selectorOf } from '../abi.ts';
import { redirectBytecode, systemContracts, trackCallFrames } from '../index.ts';

export interface SystemEvm {
  readonly evm: EVM;
  /**
   * Runs a top-level call from `caller` (default: 0x…0002, the treasury) with `gas` (default 15,000,000) and `value`
   * (default 0, the caller funded for it), as a request of its own: it sees no write of an earlier call but code, and
   * numbers its entities from the ledger's next.
   */
  call(
    to: Uint8Array,
    data: Uint8Array,
    options?: { gas?: bigint; caller?: Uint8Array; value?: bigint },
  ): Promise<ExecResult>;
  /** Puts `code` at `address`. */
  deploy(address: Uint8Array, code: Uint8Array): Promise<void>;
}

const TREASURY = new Uint8Array(20);
TREASURY[19] = 2;

export async function systemEvm(
  reader: LedgerReader,
  redirects: readonly { kind: RedirectKind; address: Uint8Array }[] = [],
): Promise<SystemEvm> {
  const common = createCustomCommon({ chainId: 296 }, Mainnet, { hardfork: Hardfork.Cancun });
  const stateManager = new LedgerState(common);
  let firstEntityNumber: Promise<bigint> | undefined;
  const source: StateSource = {
    ledger: reader,
    slots: new SlotReader(reader.db, reader.block, reader.latest),
    codeOf: async () => undefined,
    firstEntityNumber() {
      firstEntityNumber ??= firstNewEntityNumber(reader.db, reader.block, reader.settings);
      return firstEntityNumber;
    },
  };
  const evm = await createEVM({ common, stateManager, customPrecompiles: systemContracts(reader) });
  trackCallFrames(evm);
  // Code outlives a call, as a contract's does on the ledger; every other write, the entity numbers included, is the
  // call's own.
  const codes = new Map<string, { address: Address; code: Uint8Array }>();
  const deploy = (address: Uint8Array, code: Uint8Array) => {
    const at = new Address(address);
    codes.set(at.toString(), { address: at, code });
    return stateManager.putCode(at, code);
  };
  const startRun = async () => {
    stateManager.reset(source, undefined);
    for (const { address, code } of codes.values()) await stateManager.putCode(address, code);
  };
  await startRun();
  for (const redirect of redirects) await deploy(redirect.address, redirectBytecode(redirect.kind, redirect.address));
  return {
    evm,
    deploy,
    async call(to, data, options = {}) {
      await startRun();
      const result = await evm.runCall({
        to: new Address(to),
        caller: new Address(options.caller ?? TREASURY),
        data,
        gasLimit: options.gas ?? 15_000_000n,
        value: options.value ?? 0n,
        skipBalance: true,
      });
      return result.execResult;
    },
  };
}

/** Call data: the signature's selector, then the argument bytes as given. */
export function calldata(signature: string, ...args: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(4 + args.reduce((n, arg) => n + arg.length, 0));
  new DataView(out.buffer).setUint32(0, selectorOf(signature));
  let at = 4;
  for (const arg of args) {
    out.set(arg, at);
    at += arg.length;
  }
  return out;
}

export const word = (value: bigint): Uint8Array => encode(int(value));

export const addressArg = (value: Uint8Array): Uint8Array => encode(address(value));
