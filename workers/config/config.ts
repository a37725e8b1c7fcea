import { DEFAULT_CONFIG } from './defaults.ts';

export type Config = typeof DEFAULT_CONFIG;

type Tree = { [key: string]: unknown };

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep-merges `override` over `base`; arrays and scalars replace, objects merge. */
export function mergeConfig<T>(base: T, override: unknown): T {
  if (!isTree(base) || !isTree(override)) return (override === undefined ? base : override) as T;
  const merged: Tree = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = mergeConfig(base[key], value);
  return merged as T;
}

const DURATION_UNITS_NS: Record<string, bigint> = {
  ns: 1n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
};

/** Parses the reference's duration strings (`7d`, `35m`, `10s`, `500ms`) into nanoseconds. */
export function parseDurationNs(text: string): number {
  const match = /^(\d+)(ns|ms|s|m|h|d)$/.exec(text.trim());
  const unit = match?.[2] ? DURATION_UNITS_NS[match[2]] : undefined;
  if (!match?.[1] || unit === undefined) throw new Error(`Invalid duration: ${text}`);
  return Number(BigInt(match[1]) * unit);
}

/**
 * Applies `overrides` (a partial settings tree in the reference's shape) over `base`. A duration given only in
 * its text form (`maxTimestampRange: '1d'`) also sets its `*Ns` twin, which is the value the code reads.
 */
export function buildConfig(overrides: unknown = {}, base: Config = DEFAULT_CONFIG): Config {
  const config = mergeConfig(base, overrides);
  const query = config.query as unknown as Tree;
  const given = isTree(overrides) && isTree(overrides.query) ? overrides.query : {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value === 'string' && `${key}Ns` in DEFAULT_CONFIG.query && !(`${key}Ns` in given)) {
      query[`${key}Ns`] = parseDurationNs(value);
    }
  }
  return config;
}

/**
 * Reads settings from environment variables named after their path, the way the reference's relaxed binding
 * does: `HIERO_MIRROR_REST_RESPONSE_LIMIT_MAX=200`, `HIERO_MIRROR_REST_QUERY_MAXTIMESTAMPRANGE=1d`,
 * `HIERO_MIRROR_COMMON_SHARD=1`, `HIERO_MIRROR_WEB3_THROTTLE_REQUESTSPERSECOND=100`. Values are JSON where they parse as JSON (numbers, booleans, arrays), else text.
 */
export function configFromEnv(env: object): Config {
  const vars = env as Readonly<Record<string, unknown>>;
  const overrides: Tree = {};
  const visit = (defaults: Tree, path: string[]) => {
    for (const [key, value] of Object.entries(defaults)) {
      const keyPath = [...path, key];
      if (isTree(value)) {
        visit(value, keyPath);
        continue;
      }
      const root = keyPath[0] === 'common' || keyPath[0] === 'web3' ? 'HIERO_MIRROR_' : 'HIERO_MIRROR_REST_';
      const raw = vars[root + keyPath.map((part) => part.toUpperCase()).join('_')];
      if (typeof raw !== 'string') continue;
      let target = overrides;
      for (const part of keyPath.slice(0, -1)) {
        if (!isTree(target[part])) target[part] = {};
        target = target[part] as Tree;
      }
      target[key] = parseEnvValue(raw);
    }
  };
  visit(DEFAULT_CONFIG as unknown as Tree, []);
  return buildConfig(overrides);
}

function parseEnvValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
