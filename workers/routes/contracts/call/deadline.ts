import type { Database } from '../../../../db/client.ts';
import { EvmRequestError } from '../../../evm/types.ts';

/**
 * The database as a call sees it: past `deadlineMs` (epoch ms) every further statement is refused, which ends the
 * request with 503, as the reference checks its `requestTimeout` before each query.
 */
export function withDeadline(db: Database, deadlineMs: number): Database {
  return {
    rows(query) {
      if (Date.now() > deadlineMs) return Promise.reject(new EvmRequestError(503, 'Request timed out'));
      return db.rows(query);
    },
  };
}

export const isTimeout = (error: unknown): boolean => error instanceof EvmRequestError && error.httpStatus === 503;
