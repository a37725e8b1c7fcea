import { buildConfig, type Config } from './config.ts';
import { DEFAULT_CONFIG } from './defaults.ts';

type Tree = { [key: string]: unknown };

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The prefix every settings variable starts with. */
export const SETTINGS_PREFIX = 'HIERO_MIRROR_';

/** The top-level subtrees named directly under `HIERO_MIRROR_` (the rest are `hiero.mirror.rest.*`). */
const OWN_ROOTS: ReadonlySet<string> = new Set(['common', 'web3', 'rosetta']);

/**
 * Every settings variable the Worker reads, with the path of the setting in the tree: one per node of the
 * reference's tree, named after its path in upper case the way the reference's relaxed binding names them
 * (`common.*`, `web3.*` and `rosetta.*` under `HIERO_MIRROR_`, the rest under `HIERO_MIRROR_REST_`). A variable may name a leaf
 * (`..._EDGE_RATELIMIT_READS_RATE=600`) or a whole subtree as a JSON object (`..._EDGE_RATELIMIT_READS=
 * {"rate":600,"burst":1200}`). The `*Ns` twins of durations are derived, not settings: the text form is the
 * setting (`..._QUERY_MAXTIMESTAMPRANGE=1d`).
 */
export const SETTINGS_VARIABLES: ReadonlyMap<string, readonly string[]> = (() => {
  const variables = new Map<string, string[]>();
  const visit = (node: Tree, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (key.endsWith('Ns') && typeof value === 'number') continue;
      const keyPath = [...path, key];
      const root = OWN_ROOTS.has(keyPath[0] as string) ? SETTINGS_PREFIX : `${SETTINGS_PREFIX}REST_`;
      variables.set(root + keyPath.map((part) => part.toUpperCase()).join('_'), keyPath);
      if (isTree(value)) visit(value, keyPath);
    }
  };
  visit(DEFAULT_CONFIG as unknown as Tree, []);
  return variables;
})();

/** A variable's text: JSON where it parses as JSON (numbers, booleans, arrays, objects), else the text itself. */
function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export interface EnvSettings {
  config: Config;
  /** `HIERO_MIRROR_*` variables that name no setting: set, and ignored. */
  unknown: string[];
  /** Variables naming a subtree whose value is not a JSON object: ignored. */
  invalid: string[];
}

/**
 * The settings the environment gives. A subtree's variable is applied before the variables of its members, so the
 * more specific one wins whatever the order of the environment.
 */
export function readEnvSettings(env: object): EnvSettings {
  const vars = env as Readonly<Record<string, unknown>>;
  const overrides: Tree = {};
  const invalid: string[] = [];
  const byDepth = [...SETTINGS_VARIABLES].sort(([, a], [, b]) => a.length - b.length);
  for (const [name, path] of byDepth) {
    const raw = vars[name];
    if (typeof raw !== 'string') continue;
    const value = parseValue(raw);
    // An object that is empty by default is a map setting (`rosetta.nodes`): one value, not a subtree of settings.
    const byDefault = valueAt(DEFAULT_CONFIG as unknown as Tree, path);
    const isSubtree = isTree(byDefault) && Object.keys(byDefault).length > 0;
    if (isSubtree && !isTree(value)) {
      invalid.push(name);
      continue;
    }
    setAt(overrides, path, isSubtree ? mergeTrees(valueAt(overrides, path), value as Tree) : value);
  }
  const unknown = Object.keys(vars)
    .filter((name) => name.startsWith(SETTINGS_PREFIX) && !SETTINGS_VARIABLES.has(name))
    .sort();
  return { config: buildConfig(overrides), unknown, invalid };
}

/** The settings the environment gives (`readEnvSettings` without its report). */
export function configFromEnv(env: object): Config {
  return readEnvSettings(env).config;
}

function valueAt(tree: Tree, path: readonly string[]): unknown {
  let node: unknown = tree;
  for (const part of path) node = isTree(node) ? node[part] : undefined;
  return node;
}

function setAt(tree: Tree, path: readonly string[], value: unknown): void {
  let node = tree;
  for (const part of path.slice(0, -1)) {
    if (!isTree(node[part])) node[part] = {};
    node = node[part] as Tree;
  }
  node[path[path.length - 1] as string] = value;
}

function mergeTrees(base: unknown, override: Tree): Tree {
  const merged: Tree = isTree(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(override)) {
    merged[key] = isTree(value) ? mergeTrees(merged[key], value) : value;
  }
  return merged;
}

/**
 * One line for the operator when variables are set that do nothing, written when the isolate first reads its
 * settings: a misspelt or outdated variable is otherwise silently ignored.
 */
export function reportEnvSettings({ unknown, invalid }: EnvSettings): void {
  if (unknown.length === 0 && invalid.length === 0) return;
  console.log(
    JSON.stringify({
      level: 'warn',
      message: 'settings variables ignored',
      ...(unknown.length > 0 ? { unknown } : {}),
      ...(invalid.length > 0 ? { notAJsonObject: invalid } : {}),
    }),
  );
}
