import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRPC_SETTING_DEFAULTS, readGrpcSettings } from './settings.ts';

const README = readFileSync(path.join(import.meta.dirname, '../README.md'), 'utf8');

/** The README's `HIERO_MIRROR_GRPC_*` rows as [variable, default] (`A_B` / `..._C`: the stem of the first name). */
function documented(): [string, string][] {
  const rows: [string, string][] = [];
  for (const line of README.split('\n')) {
    const [names, defaults] = line.replace(/^\| /, '').split(' | ');
    if (!names?.startsWith('`HIERO_MIRROR_GRPC_') || defaults === undefined) continue;
    const nameList = names.split(' / ').map((cell) => cell.replaceAll('`', ''));
    const stem = (nameList[0] ?? '').slice(0, (nameList[0] ?? '').lastIndexOf('_'));
    const defaultList = defaults.split(' / ').map((cell) => cell.replaceAll('`', ''));
    nameList.forEach((name, i) => {
      rows.push([name.startsWith('..._') ? `${stem}${name.slice(3)}` : name, defaultList[i] ?? '']);
    });
  }
  return rows;
}

describe('gRPC settings', () => {
  it('documents every variable with its default in the README', () => {
    const grpcDefaults = [...GRPC_SETTING_DEFAULTS].filter(([name]) => name.startsWith('HIERO_MIRROR_GRPC_'));
    expect(documented().sort()).toEqual(grpcDefaults.sort());
  });

  it('has the reference defaults', () => {
    expect(readGrpcSettings({})).toEqual({
      settings: {
        port: 5600,
        checkTopicExists: true,
        endTimeIntervalMs: 30_000,
        listener: { intervalMs: 500, maxPageSize: 5000, maxBufferSize: 16384 },
        retriever: { maxPageSize: 1000, pollingFrequencyMs: 2000, unthrottledMaxPageSize: 5000 },
        addressBook: { pageSize: 10, pageDelayMs: 250 },
        maxConcurrentCallsPerConnection: 5,
        statementTimeoutMs: 10_000,
        shard: 0n,
        realm: 0n,
      },
      ignored: [],
    });
  });

  it('reads durations as the reference writes them, a bare number as milliseconds', () => {
    const read = readGrpcSettings({
      HIERO_MIRROR_GRPC_LISTENER_INTERVAL: '2s',
      HIERO_MIRROR_GRPC_ENDTIMEINTERVAL: '1500',
    });
    expect('settings' in read && [read.settings.listener.intervalMs, read.settings.endTimeIntervalMs]).toEqual([
      2000, 1500,
    ]);
  });

  it('lists the gRPC variables that name no setting', () => {
    const read = readGrpcSettings({ HIERO_MIRROR_GRPC_LISTENER_TYPE: 'REDIS', HIERO_MIRROR_REST_X: '1' });
    expect('ignored' in read && read.ignored).toEqual(['HIERO_MIRROR_GRPC_LISTENER_TYPE']);
  });

  it('names every variable set wrongly or out of the reference bounds', () => {
    expect(
      readGrpcSettings({
        HIERO_MIRROR_GRPC_LISTENER_INTERVAL: '10ms',
        HIERO_MIRROR_GRPC_PORT: 'x',
        HIERO_MIRROR_GRPC_CHECKTOPICEXISTS: 'yes',
      }),
    ).toEqual({
      errors: [
        expect.stringMatching(/^HIERO_MIRROR_GRPC_PORT=x: /),
        expect.stringMatching(/^HIERO_MIRROR_GRPC_CHECKTOPICEXISTS=yes: /),
        expect.stringMatching(/^HIERO_MIRROR_GRPC_LISTENER_INTERVAL=10ms: /),
      ],
    });
  });
});
