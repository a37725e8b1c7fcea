import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG } from './defaults.ts';
import { readEnvSettings, reportEnvSettings, SETTINGS_PREFIX, SETTINGS_VARIABLES } from './env-settings.ts';

const README = readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');

interface DocumentedSetting {
  name: string;
  documentedDefault: string;
}

/**
 * The `HIERO_MIRROR_*` rows (but `HIERO_MIRROR_GRPC_*`) of the README's configuration tables, one entry per
 * variable: a cell may list several (`A_B_MAX` / `..._MIN`: the `...` stands for the first name without its last
 * part), with their defaults in the same order.
 */
function documentedSettings(): DocumentedSetting[] {
  const section = README.slice(README.indexOf('## Configuration'), README.indexOf('## Testing'));
  const settings: DocumentedSetting[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split(' | ');
    const [names, defaults] = [cells[0]?.replace(/^\| /, ''), cells[1]];
    if (!names?.startsWith(`\`${SETTINGS_PREFIX}`) || defaults === undefined) continue;
    // The gRPC API's settings are read by the Node service (grpc/settings.test.ts checks them).
    if (names.startsWith(`\`${SETTINGS_PREFIX}GRPC_`)) continue;
    const nameList = names.split(' / ').map((cell) => cell.replaceAll('`', ''));
    const first = nameList[0] ?? '';
    const stem = first.slice(0, first.lastIndexOf('_'));
    const defaultList = defaults.split(' / ').map((cell) => cell.replaceAll('`', ''));
    nameList.forEach((name, i) => {
      settings.push({
        name: name.startsWith('..._') ? `${stem}${name.slice(3)}` : name,
        documentedDefault: defaultList[i] ?? '',
      });
    });
  }
  return settings;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

function valueAt(path: readonly string[]): unknown {
  let node: unknown = DEFAULT_CONFIG;
  for (const part of path) node = (node as Record<string, unknown>)[part];
  return node;
}

describe('settings variables', () => {
  const documented = documentedSettings();

  it('finds the README tables', () => {
    expect(documented.length).toBeGreaterThan(20);
  });

  it.each(documented)(
    '$name, as the README documents it, is read by the Worker with its documented default',
    ({ name, documentedDefault }) => {
      const settingPath = SETTINGS_VARIABLES.get(name);
      expect(settingPath, `${name} is not a setting the Worker reads`).toBeDefined();
      expect(valueAt(settingPath ?? [])).toEqual(parsed(documentedDefault));
      const { config, unknown, invalid } = readEnvSettings({ [name]: documentedDefault });
      expect([unknown, invalid]).toEqual([[], []]);
      expect(config).toEqual(readEnvSettings({}).config);
    },
  );

  it('takes a whole subtree as a JSON object, and a member variable over it', () => {
    const { config } = readEnvSettings({
      HIERO_MIRROR_REST_EDGE_RATELIMIT_READS: '{"rate":7,"burst":9}',
      HIERO_MIRROR_REST_EDGE_RATELIMIT_CONTRACTSCALL: '{"rate":3}',
      HIERO_MIRROR_REST_EDGE_RATELIMIT_CONTRACTSCALL_RATE: '4',
    });
    expect(config.edge.rateLimit.reads).toEqual({ rate: 7, burst: 9 });
    expect(config.edge.rateLimit.contractsCall).toEqual({ rate: 4, burst: 100 });
  });

  it('reads a duration in its text form into the nanoseconds the code uses', () => {
    const { config } = readEnvSettings({ HIERO_MIRROR_REST_QUERY_MAXTIMESTAMPRANGE: '1d' });
    expect(config.query.maxTimestampRangeNs).toBe(86_400_000_000_000);
  });

  it('names the variables it ignores: unknown names, derived values, a subtree that is not an object', () => {
    const { config, unknown, invalid } = readEnvSettings({
      HIERO_MIRROR_REST_RESPONSE_LIMIT_MAXX: '5',
      HIERO_MIRROR_REST_QUERY_MAXTIMESTAMPRANGENS: '5',
      HIERO_MIRROR_REST_EDGE_RATELIMIT_READS: '500',
      DATABASE_URL: 'postgres://db',
    });
    expect(unknown).toEqual(['HIERO_MIRROR_REST_QUERY_MAXTIMESTAMPRANGENS', 'HIERO_MIRROR_REST_RESPONSE_LIMIT_MAXX']);
    expect(invalid).toEqual(['HIERO_MIRROR_REST_EDGE_RATELIMIT_READS']);
    expect(config).toEqual(readEnvSettings({}).config);
  });

  it('reports ignored variables in one log line, and nothing when there are none', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      reportEnvSettings(readEnvSettings({}));
      expect(log).not.toHaveBeenCalled();
      reportEnvSettings(readEnvSettings({ HIERO_MIRROR_REST_NOPE: '1' }));
      expect(log).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toEqual({
        level: 'warn',
        message: 'settings variables ignored',
        unknown: ['HIERO_MIRROR_REST_NOPE'],
      });
    } finally {
      log.mockRestore();
    }
  });
});
