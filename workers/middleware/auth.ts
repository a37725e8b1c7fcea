import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

/** Compares in time that depends only on the lengths, so a wrong password reveals nothing of the right one. */
function sameText(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

function basicCredentials(header: string | undefined): { name: string; pass: string } | undefined {
  const match = header ? /^basic +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  let decoded: string;
  try {
    decoded = atob(match[1]);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { name: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}

/**
 * HTTP basic auth against the configured `users`, as the reference does it: no credentials, no effect; unknown
 * credentials, 401 `Invalid credentials`; a known user with a positive `limit` gets that as the page-size cap.
 * Must run after the config is on the context.
 */
export function authenticate(c: Context<AppEnv>): void {
  const config = c.get('config');
  c.set('maxLimit', config.response.limit.max);
  const credentials = basicCredentials(c.req.header('authorization'));
  if (credentials) {
    const user = config.users.find(
      (u) => sameText(u.username, credentials.name) && sameText(u.password, credentials.pass),
    );
    if (!user) throw ApiError.unauthorized();
    if (user.limit > 0) c.set('maxLimit', user.limit);
  }
}
