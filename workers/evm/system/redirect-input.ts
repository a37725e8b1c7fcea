/**
 * The input of a `redirectFor…(address,bytes)` call. The proxy at an entity's address packs it as the selector,
 * the 20-byte address and the raw calldata; a contract calling the function itself ABI-encodes it. As on the
 * consensus node, the strict ABI form is tried first and the packed form otherwise.
 */
import { AbiArgs, AbiDecodeError } from './abi.ts';

export interface RedirectInput {
  readonly target: Uint8Array;
  readonly data: Uint8Array;
}

const SELECTOR = 4;
const WORD = 32;
const ADDRESS = 20;

/** An exact ABI encoding of (address, bytes): clean address, offset 64, padded length that ends the input. */
function abiForm(input: Uint8Array): RedirectInput | undefined {
  const body = input.subarray(SELECTOR);
  if (body.length < 3 * WORD) return undefined;
  const args = new AbiArgs(body);
  try {
    if (args.uint(1) !== BigInt(2 * WORD)) return undefined;
    const data = args.bytes(1);
    if (body.length !== 3 * WORD + Math.ceil(data.length / WORD) * WORD) return undefined;
    return { target: args.address(0), data };
  } catch (error) {
    if (error instanceof AbiDecodeError) return undefined;
    throw error;
  }
}

/** The redirect's target and calldata; undefined when the input is too short for either form. */
export function parseRedirect(input: Uint8Array): RedirectInput | undefined {
  const abi = abiForm(input);
  if (abi) return abi;
  if (input.length < SELECTOR + ADDRESS) return undefined;
  return { target: input.slice(SELECTOR, SELECTOR + ADDRESS), data: input.subarray(SELECTOR + ADDRESS) };
}
