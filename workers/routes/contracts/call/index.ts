import type { Context } from 'hono';
import { cors } from 'hono/cors';
import { web3Settings } from '../../../config/web3.ts';
import type { AppEnv } from '../../../context.ts';
import { ApiError } from '../../../errors.ts';
import { badRequest, replyError, serverError, unsupportedMediaType } from './call-errors.ts';
import { executorStub } from './executor-stub.ts';
import { MISSING_BODY, readCallRequest, UNREADABLE_BODY } from './request-body.ts';
import { validateCallRequest } from './schemas.ts';

const JSON_MEDIA_TYPE = /^application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;

/** The content type as Spring prints it back: no blanks around its parameters. */
const asSpringPrints = (contentType: string) => contentType.trim().replace(/\s*([;=])\s*/g, '$1');

/** The reference lets any origin call its contract routes, with GET, HEAD and POST. */
export const contractsPreflight = cors({ origin: '*', allowMethods: ['GET', 'HEAD', 'POST'] });

/**
 * POST /api/v1/contracts/call (issue #24): the body is read and validated here, in the Worker; the call runs in the
 * client's EvmExecutor shard, which throttles it first.
 */
export async function callRoute(c: Context<AppEnv>): Promise<Response> {
  const contentType = c.req.header('content-type');
  const body = await c.req.text().catch(() => {
    throw replyError(badRequest([UNREADABLE_BODY]));
  });
  // Spring reads a request without a content type as octet-stream, unless it has no body at all.
  if (contentType === undefined && body === '') throw replyError(badRequest([MISSING_BODY]));
  if (!JSON_MEDIA_TYPE.test(contentType ?? '')) {
    throw replyError(unsupportedMediaType(asSpringPrints(contentType ?? 'application/octet-stream')));
  }
  const read = readCallRequest(body);
  if (!read.ok) throw replyError(badRequest([read.detail]));
  const validated = validateCallRequest(read.request);
  if (!validated.ok) throw replyError(badRequest(validated.details));

  const settings = web3Settings(c.get('config'));
  const stub = executorStub(c);
  const reply = await stub.call({ kind: 'call', call: validated.request, settings }).catch((error: unknown) => {
    // Anything the executor did not answer itself (a failed read, a bug) is the web3 module's bare 500.
    throw ApiError.web3(500, serverError(500).messages, { cause: error });
  });
  if (!reply.ok) throw replyError(reply.error);
  return new Response(JSON.stringify({ result: reply.result }), {
    headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
  });
}
