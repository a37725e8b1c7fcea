import { type LogLine, RepeatedLines } from '../common/repeated-lines.ts';
import { DatabaseError } from '../db/database-error.ts';
import { describeError } from './describe-error.ts';
import { pathAndQuery } from './request-url.ts';

/** An error in one line: its name and message (the first line of a stack handed over as text). */
export function errorLine(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.split('\n')[0] as string;
  return String(error).split('\n')[0] as string;
}

/**
 * The log lines of failures in this isolate (requests, the stream tail and hubs, the rate limiter), a failure's
 * repeats held back and summarised (common/repeated-lines.ts).
 */
export const failureLines = new RepeatedLines((line) => console.log(JSON.stringify(line)));

/**
 * The log line of a request answered 5xx: one line with its level, status and cause. A database that failed (503,
 * which clients retry) is a warning; anything else an error, with the stack of what went wrong. The cause is the
 * error wrapped by what the route threw (a contract call's `Service Unavailable` names the database error inside the
 * EVM executor that led to it). Lines of the same failure are held back and counted (`RepeatedLines`).
 */
export function logFailure(request: { method: string; url: string }, status: number, error: unknown): void {
  const cause = error instanceof Error && !(error instanceof DatabaseError) ? error.cause : undefined;
  const line: LogLine = {
    msg: 'request failed',
    level: status === 503 ? 'warn' : 'error',
    method: request.method,
    path: pathAndQuery(request.url).path,
    status,
    error: errorLine(error),
    ...(cause !== undefined ? { cause: errorLine(cause) } : {}),
  };
  if (status !== 503) line.stack = describeError(cause ?? error);
  failureLines.write(`${status} ${line.error} ${line.cause ?? ''}`, line);
}

/** Writes the summaries of failures no longer repeating; run after every request. */
export function flushFailureLines(): void {
  failureLines.flush();
}
