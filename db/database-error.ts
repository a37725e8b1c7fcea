/**
 * A statement the database did not answer: unreachable, refused, timed out or failed. The REST API answers it as the
 * reference answers its `DbError`, 503 `Service unavailable`, which tells clients and load balancers to retry.
 * `cause` is the driver's own error, for the log.
 */
export class DatabaseError extends Error {
  constructor(cause: unknown) {
    super(`database statement failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DatabaseError';
  }
}
