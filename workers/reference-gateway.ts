/**
 * The paths the reference serves no route for, answered as it answers them. The reference is three services behind
 * one gateway (its charts' ingress and HTTPRoutes, docker-compose's nginx): a few paths go to rest-java and web3, the
 * rest of `/api/v1` to the Node REST API, and each service answers a path it has no route for in its own way:
 * - the Node REST API (Express 5, routes not strict, `:param` one non-empty segment) takes a path with one trailing
 *   slash as the path without it, and answers any other path it has no route for, one with an empty segment (`//`)
 *   included, 404 `Not found`;
 * - rest-java and web3 (Spring Framework 7) match a route exactly: a trailing slash, an empty segment or an unknown
 *   sub-path falls to the static resource handler, whose NoResourceFoundException each answers 404 with the
 *   exception's message as detail (`No static resource <path> for request '<uri>'.`).
 * This Worker serves all three from one router, which is not strict; these paths are answered before it routes.
 */
import type { Context } from 'hono';
import type { AppEnv } from './context.ts';
import { ApiError } from './errors.ts';
import { javaNotFound } from './params/java/errors.ts';
import { pathAndQuery } from './request-url.ts';

type Service = 'rest' | 'rest-java' | 'web3';

/** The gateway's account id: a number with shard and realm optional, an EVM address, or a base32 alias. */
const GATEWAY_ACCOUNT = String.raw`(\d+\.){0,2}(\d+|(0x)?[A-Fa-f0-9]{40}|(?:[A-Z2-7]{8})*(?:[A-Z2-7]{2}|[A-Z2-7]{4,5}|[A-Z2-7]{7,8}))`;

/** What the gateway sends elsewhere than the Node REST API (`routes.hooks` off, the charts' default). */
const GATEWAY: readonly (readonly [RegExp, Service])[] = [
  [/^\/api\/v1\/contracts\/call/, 'web3'],
  [/^\/api\/v1\/contracts\/results\/((0x)?[A-Fa-f0-9]{64}|\d+\.\d+\.\d+-\d+-\d+)\/opcodes/, 'web3'],
  [new RegExp(`^/api/v1/accounts/${GATEWAY_ACCOUNT}/(allowances/nfts|airdrops)`), 'rest-java'],
  [/^\/api\/v1\/network\//, 'rest-java'],
  [/^\/api\/v1\/topics\/(\d+\.){0,2}\d+$/, 'rest-java'],
];

/** The routes of rest-java and web3 the gateway reaches, as Spring matches them (`{x}`: one non-empty segment). */
const SPRING_ROUTES: Readonly<Record<Exclude<Service, 'rest'>, readonly RegExp[]>> = {
  'rest-java': [
    /^\/api\/v1\/accounts\/[^/]+\/allowances\/nfts$/,
    /^\/api\/v1\/accounts\/[^/]+\/airdrops\/(outstanding|pending)$/,
    /^\/api\/v1\/network\/(exchangerate|fees|nodes|registered-nodes|stake|supply)$/,
    /^\/api\/v1\/topics\/[^/]+$/,
  ],
  web3: [/^\/api\/v1\/contracts\/call$/, /^\/api\/v1\/contracts\/results\/[^/]+\/opcodes$/],
};
const ALL_SPRING_ROUTES = [...SPRING_ROUTES['rest-java'], ...SPRING_ROUTES.web3];

const serviceOf = (path: string): Service => GATEWAY.find(([pattern]) => pattern.test(path))?.[1] ?? 'rest';

/** PathPattern.extractPathWithinPattern for `/**`: no leading or trailing separator, runs of them as one. */
const resourcePath = (path: string): string => path.replace(/\/+/g, '/').replace(/^\/|\/$/g, '');

/**
 * Throws the reference's 404 for an `/api/v1` path the service the gateway sends it to has no route for; returns for
 * every other path, which the router then serves.
 */
export function refuseUnroutedPath(c: Context<AppEnv>): void {
  const { path } = pathAndQuery(c.req.url);
  if (!path.startsWith('/api/v1/')) return;
  const service = serviceOf(path);
  if (service === 'rest') {
    // Express matches no empty segment, and has none of the routes the gateway sends elsewhere.
    const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
    if (path.includes('//') || ALL_SPRING_ROUTES.some((route) => route.test(trimmed))) {
      throw new ApiError(404, 'Not found');
    }
    return;
  }
  if (SPRING_ROUTES[service].some((route) => route.test(path))) return;
  const detail = `No static resource ${resourcePath(path)} for request '${path}'.`;
  throw service === 'web3' ? ApiError.web3(404, { message: 'Not Found', detail }) : javaNotFound(detail);
}
