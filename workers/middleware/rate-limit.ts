import type { Context } from 'hono';
import type { Config } from '../config/config.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

type RouteClass = keyof Omit<Config['edge']['rateLimit'], 'enabled'>;

function routeClass(method: string, path: string): RouteClass {
  if (method === 'POST' && path === '/api/v1/contracts/call') return 'contractsCall';
  if (/^\/api\/v1\/contracts\/results\/[^/]+\/opcodes$/.test(path)) return 'opcodes';
  return 'reads';
}

/** The client a bucket belongs to: its API key when it sends one, else its address as Cloudflare saw it. */
function clientKey(header: (name: string) => string | undefined): string {
  const apiKey = header('x-api-key');
  if (apiKey) return `key:${apiKey}`;
  return `ip:${header('cf-connecting-ip') ?? header('x-real-ip') ?? 'unknown'}`;
}

/**
 * Per-client token buckets in Durable Objects, one bucket per client and route class. Over the limit: 429 with
 * `Retry-After` and the reference's throttle message. Without the binding (or switched off) nothing is limited, and
 * nothing is awaited: no promise then, as for most requests.
 */
export function limitRate(c: Context<AppEnv>): Promise<void> | undefined {
  const settings = c.get('config').edge.rateLimit;
  const namespace = c.env.RATE_LIMITER;
  if (!settings.enabled || !namespace) {
    c.set('rateLimit', 'off');
    return undefined;
  }
  const kind = routeClass(c.req.method, c.req.path);
  const { rate, burst } = settings[kind];
  const stub = namespace.get(namespace.idFromName(`${kind}:${clientKey((name) => c.req.header(name))}`));
  return stub.take(rate, burst).then((result) => {
    c.set('rateLimit', result.allowed ? 'allowed' : 'limited');
    if (!result.allowed) {
      throw new ApiError(429, 'Requests per second rate limit exceeded.', {
        headers: { 'retry-after': String(result.retryAfterSeconds) },
      });
    }
  });
}
