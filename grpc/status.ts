/**
 * The one place errors become gRPC statuses, with the reference's codes and descriptions: bad arguments are
 * INVALID_ARGUMENT with their message, a missing entity NOT_FOUND, a lagging client DEADLINE_EXCEEDED, a database
 * that is gone UNAVAILABLE and one that failed a query RESOURCE_EXHAUSTED (both "Error querying the data source.
 * Please retry later"), anything else UNKNOWN "Unknown error"; internal details never reach the client.
 */
import { status } from '@grpc/grpc-js';
import { DatabaseError } from '../db/database-error.ts';
import { isDatabaseUnavailable } from '../ingest/transient-errors.ts';

const DB_ERROR = 'Error querying the data source. Please retry later';
export const OVERFLOW_ERROR = 'Client lags too much behind. Please retry later';
const UNKNOWN_ERROR = 'Unknown error';

/** An answer to the client: a status and the description it is sent with. */
export class GrpcStatusError extends Error {
  override readonly name = 'GrpcStatusError';
  readonly code: status;
  constructor(code: status, message: string) {
    super(message);
    this.code = code;
  }
}

export const invalidArgument = (message: string) => new GrpcStatusError(status.INVALID_ARGUMENT, message);
export const notFound = (entity: string) => new GrpcStatusError(status.NOT_FOUND, `${entity} does not exist`);

/** The status for `error`, and whether it is the server's fault (logged as an error rather than a warning). */
export function toStatus(failure: unknown): { code: status; details: string; serverError: boolean } {
  if (failure instanceof GrpcStatusError) {
    return { code: failure.code, details: failure.message, serverError: false };
  }
  // The driver's own error says what went wrong with a statement.
  const error = failure instanceof DatabaseError ? failure.cause : failure;
  if (isDatabaseUnavailable(error)) return { code: status.UNAVAILABLE, details: DB_ERROR, serverError: true };
  // node-postgres errors carry the server's SQLSTATE: a statement timeout, a lock wait, a serialization failure.
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string') {
    return { code: status.RESOURCE_EXHAUSTED, details: DB_ERROR, serverError: true };
  }
  return { code: status.UNKNOWN, details: UNKNOWN_ERROR, serverError: true };
}
