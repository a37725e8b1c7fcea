import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DatabaseError } from '../db/database-error.ts';
import { toStatus } from './status.ts';

const DB_ERROR = 'Error querying the data source. Please retry later';

/** An error as node-postgres reports a statement the server failed: the SQLSTATE in `code`. */
const serverError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('toStatus', () => {
  it('reads a failed statement by the driver error a DatabaseError carries', () => {
    const timeout = new DatabaseError(serverError('57014', 'canceling statement due to statement timeout'));
    expect(toStatus(timeout)).toEqual({ code: status.RESOURCE_EXHAUSTED, details: DB_ERROR, serverError: true });
    const gone = new DatabaseError(serverError('57P01', 'terminating connection due to administrator command'));
    expect(toStatus(gone)).toEqual({ code: status.UNAVAILABLE, details: DB_ERROR, serverError: true });
  });

  it('keeps anything else unknown, without its details', () => {
    expect(toStatus(new Error('boom'))).toEqual({ code: status.UNKNOWN, details: 'Unknown error', serverError: true });
  });
});
