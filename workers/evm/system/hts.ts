/**
 * HTS, the token service system contract at 0x167: the functions called on it directly and the ERC functions of a
 * token through its redirect proxy, reads and writes. Writes change only the run's token ledger (token-ledger.ts)
 * and halt in a static frame, as the consensus node halts a state change there. A selector the node has no function
 * for succeeds with no output and no gas, directly or through a token (results.ts, `unknownSelector`); one the node
 * has that this port does not run answers 501.
 */
import type { ExecResult, PrecompileFunc } from '@ethereumjs/evm';
import type { LedgerReader } from '../types.ts';
import { AbiArgs, AbiDecodeError, leadingSelector, selectorOf } from './abi.ts';
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
import { halt, notImplemented, revertWith, unknownSelector, VIEW_GAS } from './results.ts';

/** `redirectForToken(address,bytes)`. */
const REDIRECT_FOR_TOKEN = 0x618dc65e;

/**
 * The node's functions at 0x167 this port does not run: the creations with custom fees of the first two versions of
 * the token struct (their `HederaToken` and fee tuples in 32-bit fields). Every other function the node declares at
 * 0x167 (its HTS translators' `SystemContractMethod.declare`, 0.73) is in one of the maps below.
 */
const NOT_RUN = new Set(
  [
    'createFungibleTokenWithCustomFees((string,string,address,string,bool,uint32,bool,(uint256,(bool,address,bytes,bytes,address))[],(uint32,address,uint32)),uint256,uint256,(uint32,address,bool,bool,address)[],(uint32,uint32,uint32,uint32,bool,address)[])',
    'createFungibleTokenWithCustomFees((string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(uint32,address,uint32)),uint64,uint32,(uint32,address,bool,bool,address)[],(uint32,uint32,uint32,uint32,bool,address)[])',
    'createNonFungibleTokenWithCustomFees((string,string,address,string,bool,uint32,bool,(uint256,(bool,address,bytes,bytes,address))[],(uint32,address,uint32)),(uint32,address,bool,bool,address)[],(uint32,uint32,uint32,address,bool,address)[])',
    'createNonFungibleTokenWithCustomFees((string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(uint32,address,uint32)),(uint32,address,bool,bool,address)[],(uint32,uint32,uint32,address,bool,address)[])',
  ].map(selectorOf),
);

const REDIRECT_MAPS = [ERC_FUNCTIONS, ERC_WRITES, HRC_WRITES, REJECT_REDIRECTS, AIRDROP_REDIRECTS] as const;

/** Whether the node has a function for `selector` at 0x167, called directly or through a token. */
const nodeHas = (selector: number): boolean =>
  NOT_RUN.has(selector) ||
  DIRECT_FUNCTIONS.has(selector) ||
  DIRECT_WRITES.has(selector) ||
  REDIRECT_MAPS.some((map) => map.has(selector));

/** The answer to a function this port has no handler for in the way it was called. */
const unhandled = (selector: number): ExecResult => (nodeHas(selector) ? notImplemented() : unknownSelector());

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
  if (!read && !write) return unhandled(selector);
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
      if (!write) return unhandled(selector);
      if (base.isStatic) return halt(gasLimit);
      return await write(call);
    } catch (error) {
      // Arguments that do not decode halt the call, as ERROR_DECODING_PRECOMPILE_INPUT does on the consensus node.
      if (error instanceof AbiDecodeError) return halt(gasLimit);
      throw error;
    }
  };
}
