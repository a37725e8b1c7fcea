/**
 * Which failures of a run are worth waiting out: the database going away (a restart, a failover, a Neon compute
 * suspended or updated) and the stream source being unreachable for a while. Anything else (a rejected file in an
 * until-idle run, a bug, a bad setting) ends the run as before.
 */

/** A stream source that could not be read for now: a bucket's 5xx or 429, a network failure, a dropped stream. */
export class SourceUnavailableError extends Error {
  override name = 'SourceUnavailableError';
}

/** Socket errors Node reports on a connection that went away or could not be made. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that ended or refused the session: class 08 (connection exception), 57P01–57P03 (admin
 * shutdown, crash shutdown, cannot connect now: a server starting or stopping), 53300 (too many connections).
 */
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;

/** What node-postgres says when the socket closed under it, or when its client is no longer usable. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout expired',
];

/** True when `error` says the database connection is gone or cannot be made right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
  return DRIVER_MESSAGES.some((text) => error.message.startsWith(text));
}

/** True for a network failure of `fetch` (undici's `fetch failed`, the socket error as its cause). */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = (error as { cause?: unknown }).cause;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return (
    (error instanceof TypeError && error.message === 'fetch failed') ||
    (typeof code === 'string' && NETWORK_CODES.has(code))
  );
}
