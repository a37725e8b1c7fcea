import { DatabaseError } from '../../../../db/database-error.ts';
import { describeError } from '../../../describe-error.ts';
import { ApiError, type ErrorMessage } from '../../../errors.ts';
import { hex } from '../../../format/values.ts';

/**
 * An error answer of POST /api/v1/contracts/call as plain data: the Durable Object that runs calls returns it over
 * RPC, and the route throws it as an `ApiError` for the one error handler.
 */
export interface ErrorReply {
  readonly status: number;
  readonly messages: readonly ErrorMessage[];
  readonly retryAfterSeconds?: number;
  /**
   * What failed, for the log (never the client): the stack of an error inside the Durable Object, which an RPC
   * error would not carry across.
   */
  readonly cause?: string;
}

/** The reply thrown for the one error handler, in the web3 module's body (with its `Retry-After`, if any). */
export const replyError = (reply: ErrorReply): ApiError =>
  ApiError.web3(reply.status, reply.messages, {
    headers: reply.retryAfterSeconds === undefined ? {} : { 'retry-after': String(reply.retryAfterSeconds) },
    cause: reply.cause,
  });

/** Statuses the reference answers with 500 (its server-side codes); every other EVM failure is a 400. */
const SERVER_STATUSES = new Set([
  'FAIL_INVALID',
  'FAIL_FEE',
  'FAIL_BALANCE',
  'PLATFORM_NOT_ACTIVE',
  'PLATFORM_TRANSACTION_NOT_CREATED',
  'UNKNOWN',
  'WAITING_FOR_LEDGER_ID',
]);

/** `Error(string)`: revert data starting with it carries a reason the reference shows as `detail`. */
const ERROR_SELECTOR = '08c379a0';

export const badRequest = (details: readonly string[]): ErrorReply => ({
  status: 400,
  messages: details.map((detail) => ({ message: 'Bad Request', detail })),
});

export const unsupportedMediaType = (contentType: string): ErrorReply => ({
  status: 415,
  messages: [{ message: 'Unsupported Media Type', detail: `Content-Type '${contentType}' is not supported` }],
});

export const tooManyRequests = (detail: string, retryAfterSeconds: number): ErrorReply => ({
  status: 429,
  messages: [{ message: 'Too Many Requests', detail }],
  retryAfterSeconds,
});

export const notFound = (detail: string): ErrorReply => ({ status: 404, messages: [{ message: 'Not Found', detail }] });

/** 5xx answers of the reference's handler: the status phrase, no detail. */
export const serverError = (status: 500 | 501 | 503): ErrorReply => ({
  status,
  messages: [{ message: { 500: 'Internal Server Error', 501: 'Not Implemented', 503: 'Service Unavailable' }[status] }],
});

/**
 * An error the executor did not answer itself: a database that failed is 503 (clients retry), anything else 500;
 * either carries its stack for the route's log line.
 */
export const unexpectedFailure = (error: unknown): ErrorReply => ({
  ...serverError(error instanceof DatabaseError ? 503 : 500),
  cause: describeError(error),
});

/** A call that ended in a status other than SUCCESS, with its revert data and the statuses of failed child records. */
export function evmFailure(status: string, output: Uint8Array, childStatuses: readonly string[] = []): ErrorReply {
  if (SERVER_STATUSES.has(status)) return { status: 500, messages: [{ message: status }] };
  const data = `0x${hex(output)}`;
  return {
    status: 400,
    messages: [
      { message: status, detail: revertReason(data), data },
      ...childStatuses.map((child) => ({ message: child })),
    ],
  };
}

/** The text of an `Error(string)` revert, or `""`. */
export function revertReason(data: string): string {
  if (!data.startsWith(`0x${ERROR_SELECTOR}`)) return '';
  const body = data.slice(10);
  const length = Number.parseInt(body.slice(64, 128), 16);
  const text = body.slice(128, 128 + length * 2);
  if (!Number.isSafeInteger(length) || text.length !== length * 2) return '';
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder().decode(bytes);
}
