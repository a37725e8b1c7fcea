/**
 * For tests: a real @ethereumjs EVM (Cancun, chain 296) with the system contracts of a ledger reader as its
 * precompiles, on a plain in-memory state holding the redirect proxy code at the token, account and schedule
 * addresses a test names, so calls to those addresses run through the proxy as they do on Hedera.
 */
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, type ExecResult } from '@ethereumjs/evm';
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Address } from '@ethereumjs/util';
import type { LedgerReader } from '../../types.ts';
import { address, encode, int, selectorOf } from '../abi.ts';
import { redirectBytecode, systemContracts, trackCallFrames } from '../index.ts';
import type { RedirectKind } from '../redirect.ts';

export interface SystemEvm {
  readonly evm: EVM;
  /**
   * Runs a top-level call from `caller` (default: 0x…0002, the treasury) with `gas` (default 15,000,000) and `value`
   * (default 0, the caller funded for it).
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
  const stateManager = new SimpleStateManager({ common });
  const evm = await createEVM({ common, stateManager, customPrecompiles: systemContracts(reader) });
  trackCallFrames(evm);
  const deploy = (address: Uint8Array, code: Uint8Array) => stateManager.putCode(new Address(address), code);
  for (const redirect of redirects) await deploy(redirect.address, redirectBytecode(redirect.kind, redirect.address));
  return {
    evm,
    deploy,
    async call(to, data, options = {}) {
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
