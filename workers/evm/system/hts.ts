/**
 * HTS, the token service system contract at 0x167: the functions called on it directly and the ERC functions of a
 * token through its redirect proxy, reads and writes. Writes change only the run's token ledger (token-ledger.ts)
 * and halt in a static frame, as the consensus node halts a state change there. A selector it does not know is
 * answered with 501, as the reference answers an unsupported precompile.
 */
import type { ExecResult, PrecompileFunc } from '@ethereumjs/evm';
import type { LedgerReader } from '../types.ts';
import { AbiArgs, AbiDecodeError, leadingSelector } from './abi.ts';
import { delegatingContract } from './frames.ts';
import { AIRDROP_REDIRECTS } from './hts-airdrops.ts';
import { HRC_WRITES } from './hts-associations.ts';
import { type HtsCall, systemCallBase, tokenAt } from './hts-context.ts';
import { DIRECT_FUNCTIONS } from './hts-direct.ts';
import { DIRECT_WRITES } from './hts-direct-writes.ts';
import { ERC_FUNCTIONS } from './hts-erc.ts';
import { ERC_WRITES } from './hts-erc-writes.ts';
import { REJECT_REDIRECTS } from './hts-token-reject.ts';
import { parseRedirect } from './redirect-input.ts';
import { halt, notImplemented, revertWith, VIEW_GAS } from './results.ts';

/** `redirectForToken(address,bytes)`. */
const REDIRECT_FOR_TOKEN = 0x618dc65e;

async function redirect(base: Omit<HtsCall, 'args'>, input: Uint8Array): Promise<ExecResult> {
  const redirected = parseRedirect(input);
  const selector = redirected && leadingSelector(redirected.data);
  if (!redirected || selector === undefined) return halt(base.gasLimit);
  const read = ERC_FUNCTIONS.get(selector);
  const write =
    ERC_WRITES.get(selector) ??
    HRC_WRITES.get(selector) ??
    REJECT_REDIRECTS.get(selector) ??
    AIRDROP_REDIRECTS.get(selector);
  if (!read && !write) return notImplemented();
  const token = await tokenAt(base, redirected.target);
  if (!token) return revertWith('INVALID_TOKEN_ID', VIEW_GAS, base.gasLimit);
  const call = { ...base, args: new AbiArgs(redirected.data.subarray(4)) };
  if (read) return read(call, token);
  if (base.isStatic) return halt(base.gasLimit);
  return (write as NonNullable<typeof write>)(call, token);
}

export function htsPrecompile(reader: LedgerReader): PrecompileFunc {
  return async ({ data, gasLimit, _EVM }) => {
    const selector = leadingSelector(data);
    if (selector === undefined) return halt(gasLimit);
    const base = systemCallBase(reader, _EVM, gasLimit);
    // Only a token's own proxy may DELEGATECALL HTS; any other delegation halts (UNQUALIFIED_DELEGATE).
    const delegating = delegatingContract(_EVM);
    if (delegating && !(await tokenAt(base, delegating))) return halt(gasLimit);
    try {
      if (selector === REDIRECT_FOR_TOKEN) return await redirect(base, data);
      const call = { ...base, args: new AbiArgs(data.subarray(4)) };
      const read = DIRECT_FUNCTIONS.get(selector);
      if (read) return await read(call);
      const write = DIRECT_WRITES.get(selector);
      if (!write) return notImplemented();
      if (base.isStatic) return halt(gasLimit);
      return await write(call);
    } catch (error) {
      // Arguments that do not decode halt the call, as ERROR_DECODING_PRECOMPILE_INPUT does on the consensus node.
      if (error instanceof AbiDecodeError) return halt(gasLimit);
      throw error;
    }
  };
}
