/**
 * Why `value` is not a URL the Postgres driver can connect with (`postgres:` or `postgresql:`, with a host), or
 * `undefined` when it is one. Whether the host exists and answers shows when something connects.
 */
export function databaseUrlProblem(value: string): string | undefined {
  const url = URL.parse(value);
  if (url && ['postgres:', 'postgresql:'].includes(url.protocol) && url.hostname !== '') return undefined;
  return 'is not a Postgres URL: set it to postgres://USER:PASSWORD@HOST:PORT/DATABASE';
}

/** The URL with its password as `***`, for log lines and messages. */
export function hidePassword(value: string): string {
  const url = URL.parse(value);
  if (!url?.password) return value;
  url.password = '***';
  return url.href;
}
