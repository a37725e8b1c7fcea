/**
 * HTS, the token service system contract at 0x167: the read functions called on it directly and the ERC reads of
 * a token through its redirect proxy. Writes (mint, transfer, associate, create, airdrops, …) are not supported:
 * a call reaching one is answered with 501, as the reference answers an unsupported precompile.
 */
import type { ExecResult, PrecompileFunc } from '@ethereumjs/evm';
import type { LedgerReader } from '../types.ts';
import { AbiArgs, AbiDecodeError, leadingSelector } from './abi.ts';
import { isStaticFrame } from './frames.ts';
import { tokenAt } from './hts-context.ts';
import { DIRECT_FUNCTIONS } from './hts-direct.ts';
import { ERC_FUNCTIONS } from './hts-erc.ts';
import { parseRedirect } from './redirect-input.ts';
import { halt, notImplemented, revertWith, VIEW_GAS } from './results.ts';

/** `redirectForToken(address,bytes)`. */
const REDIRECT_FOR_TOKEN = 0x618dc65e;

async function redirect(
  reader: LedgerReader,
  input: Uint8Array,
  gasLimit: bigint,
  isStatic: boolean,
): Promise<ExecResult> {
  const redirected = parseRedirect(input);
  const selector = redirected && leadingSelector(redirected.data);
  if (!redirected || selector === undefined) return halt(gasLimit);
  const erc = ERC_FUNCTIONS.get(selector);
  if (!erc) return notImplemented();
  const token = await tokenAt(reader, redirected.target);
  if (!token) return revertWith('INVALID_TOKEN_ID', VIEW_GAS, gasLimit);
  return erc({ reader, args: new AbiArgs(redirected.data.subarray(4)), gasLimit, isStatic }, token);
}

export function htsPrecompile(reader: LedgerReader): PrecompileFunc {
  return async ({ data, gasLimit, _EVM }) => {
    const selector = leadingSelector(data);
    if (selector === undefined) return halt(gasLimit);
    const isStatic = isStaticFrame(_EVM);
    try {
      if (selector === REDIRECT_FOR_TOKEN) return await redirect(reader, data, gasLimit, isStatic);
      const direct = DIRECT_FUNCTIONS.get(selector);
      if (!direct) return notImplemented();
      return await direct({ reader, args: new AbiArgs(data.subarray(4)), gasLimit, isStatic });
    } catch (error) {
      // Arguments that do not decode halt the call, as ERROR_DECODING_PRECOMPILE_INPUT does on the consensus node.
      if (error instanceof AbiDecodeError) return halt(gasLimit);
      throw error;
    }
  };
}
