import type { Database } from '../../../../db/client.ts';
import type { Web3Settings } from '../../../config/web3.ts';
import type { EvmCaches } from '../../../evm/caches.ts';
import { openSession } from '../../../evm/session.ts';
import { type CallOutcome, type CallTransaction, EvmRequestError } from '../../../evm/types.ts';
import { hex } from '../../../format/values.ts';
import type { BlockCache } from './block-cache.ts';
import { badRequest, type ErrorReply, evmFailure, notFound, serverError } from './call-errors.ts';
import { isTimeout } from './deadline.ts';
import { estimateGas, estimateHex } from './estimate.ts';
import type { CallRequest } from './schemas.ts';

/** The executor's `jumboTransactions.ethereumMaxCallDataSize`: larger call data fails as TRANSACTION_OVERSIZE. */
const MAX_CALL_DATA_BYTES = 131_072;

export type CallReply =
  | { readonly ok: true; readonly result: string }
  | { readonly ok: false; readonly error: ErrorReply };

/**
 * What became of a call: `refused` before anything ran (its gas goes back to the bucket whole), or `ran`, with the
 * gas its first run used when there was a result (the bucket gets back what it did not use).
 */
export type Execution =
  | { readonly kind: 'refused'; readonly reply: CallReply }
  | { readonly kind: 'ran'; readonly reply: CallReply; readonly gasUsed: bigint | undefined };

const refused = (error: ErrorReply): Execution => ({ kind: 'refused', reply: { ok: false, error } });

function decodeHex(digits: string): Uint8Array {
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** A call admitted by the throttles: the checks the reference makes after them, then the run (and the estimate). */
export async function executeCall(
  db: Database,
  request: CallRequest,
  settings: Web3Settings,
  blocks: BlockCache,
  caches: EvmCaches,
): Promise<Execution> {
  if (request.gas > settings.evm.maxGasLimit) {
    return refused(badRequest([`gas field must be less than or equal to ${settings.evm.maxGasLimit}`]));
  }
  if (request.dataHex.length % 2 !== 0) return refused(badRequest(['Odd number of characters.']));
  if (request.dataHex.length / 2 > MAX_CALL_DATA_BYTES) {
    return refused(evmFailure('TRANSACTION_OVERSIZE', new Uint8Array()));
  }
  try {
    const block = await blocks.resolve(db, request.block, Date.now());
    if (!block) return refused(badRequest(['Unknown block number']));
    const session = openSession({ db, block, settings: settings.evm, caches });
    const transaction: CallTransaction = {
      from: request.from,
      to: request.to,
      data: decodeHex(request.dataHex),
      value: request.value,
      gas: request.gas,
      gasPrice: request.gasPrice,
    };
    const first = await session.run(transaction);
    return {
      kind: 'ran',
      reply: await answer(first, request, (gas) => session.run({ ...transaction, gas })),
      gasUsed: first.gasUsed,
    };
  } catch (error) {
    if (!(error instanceof EvmRequestError)) throw error;
    const reply = error.httpStatus === 404 ? notFound(error.message) : serverError(error.httpStatus);
    return { kind: 'ran', reply: { ok: false, error: reply }, gasUsed: undefined };
  }
}

async function answer(
  first: CallOutcome,
  request: CallRequest,
  run: (gas: bigint) => Promise<CallOutcome>,
): Promise<CallReply> {
  if (!first.ok) return { ok: false, error: evmFailure(first.status, first.output, first.childStatuses) };
  if (!request.estimate) return { ok: true, result: `0x${hex(first.output)}` };
  return { ok: true, result: estimateHex(await estimateGas(run, first, request.gas, isTimeout)) };
}
