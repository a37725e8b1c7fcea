import type { Context } from 'hono';
import { web3Settings } from '../../../config/web3.ts';
import type { AppEnv } from '../../../context.ts';
import { ApiError } from '../../../errors.ts';
import { limitRate } from '../../../middleware/rate-limit.ts';
import { type ErrorReply, replyError, serverError } from '../call/call-errors.ts';
import { executorStub } from '../call/executor-stub.ts';
import { parseTraceOptions, parseTransactionRef } from './params.ts';

/** While the tracer is off the route does not exist, as in the reference. */
const disabled: ErrorReply = { status: 404, messages: [{ message: 'Not Found' }] };

const notAcceptable: ErrorReply = {
  status: 406,
  messages: [{ message: 'Not Acceptable', detail: 'Accept-Encoding: gzip header is required' }],
};

/**
 * GET /api/v1/contracts/results/{transactionIdOrHash}/opcodes (issue #25): the transaction is replayed with an
 * opcode tracer in the client's EvmExecutor shard, which throttles it first and streams the trace back gzipped.
 */
export async function opcodesRoute(c: Context<AppEnv>): Promise<Response> {
  const settings = web3Settings(c.get('config'));
  if (!settings.opcodes.enabled) throw replyError(disabled);
  const ref = parseTransactionRef(c.req.param('transactionIdOrHash') ?? '');
  if (!ref.ok) throw replyError(ref.error);
  // The runtime drops an empty header, so a missing one (the reference's framework 400) is answered as an empty one.
  if (!/gzip/i.test(c.req.header('accept-encoding') ?? '')) throw replyError(notAcceptable);
  const options = parseTraceOptions((name) => c.req.query(name));
  if (!options.ok) throw replyError(options.error);
  // Only a request the route would serve takes the client's token (rate-limit.ts, `routeTakesToken`).
  await limitRate(c);

  const stub = executorStub(c);
  const reply = await stub
    .trace({ kind: 'opcodes', transaction: ref.value, options: options.value, settings })
    .catch((error: unknown) => {
      throw ApiError.web3(500, serverError(500).messages, { cause: error });
    });
  if (!reply.ok) throw replyError(reply.error);
  // Compressed here, as it is made: `manual` tells the runtime the body is already in its content encoding.
  return new Response(reply.body, {
    encodeBody: 'manual',
    headers: {
      'access-control-allow-origin': '*',
      'content-encoding': 'gzip',
      'content-type': 'application/json',
    },
  });
}
