import type { ErrorHandler, NotFoundHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { ApiError, errorBody, toErrorResponse } from './errors.ts';
import { logFailure } from './failure-line.ts';
import { errorResponse } from './respond.ts';

/** The one place that turns a thrown error into the reference's error body; unexpected errors are logged. */
export const handleError: ErrorHandler<AppEnv> = (error, c) => {
  const { status, body } = toErrorResponse(error);
  if (!(error instanceof ApiError) || error.status >= 500) logFailure(c.req, status, error);
  return errorResponse(c, status, body, error instanceof ApiError ? error.headers : {});
};

/** Unknown routes, and the endpoints the reference removed (hooks, state proofs), answer 404 `Not found`. */
export const notFound: NotFoundHandler<AppEnv> = (c) => errorResponse(c, 404, errorBody([{ message: 'Not found' }]));
