import { describe, expect, it } from 'vitest';
import { readEnvSettings } from '../config/env-settings.ts';
import { entityOf } from './domain/entity-id.ts';
import { rosettaSettings } from './settings.ts';

const fromEnv = (vars: Record<string, string>) => rosettaSettings(readEnvSettings(vars).config);

describe('the Rosetta settings', () => {
  it("are the reference's defaults when nothing is set", () => {
    expect(fromEnv({})).toEqual({
      network: 'demo',
      online: true,
      subNetworkIdentifier: false,
      nodes: new Map(),
      nodeRefreshIntervalMs: 86_400_000,
      nodeVersion: '0',
      maxTransactionsInBlock: 6000,
      shard: 0n,
      realm: 0n,
    });
  });

  it('are read from HIERO_MIRROR_ROSETTA_* variables, the network lowercased', () => {
    const settings = fromEnv({
      HIERO_MIRROR_ROSETTA_NETWORK: 'TESTNET',
      HIERO_MIRROR_ROSETTA_ONLINE: 'false',
      HIERO_MIRROR_ROSETTA_FEATURE_SUBNETWORKIDENTIFIER: 'true',
      HIERO_MIRROR_ROSETTA_NODEVERSION: '0.73.0',
      HIERO_MIRROR_ROSETTA_RESPONSE_MAXTRANSACTIONSINBLOCK: '10',
      HIERO_MIRROR_ROSETTA_NODEREFRESHINTERVAL: '10m',
      HIERO_MIRROR_COMMON_SHARD: '1',
    });
    expect(settings).toMatchObject({
      network: 'testnet',
      online: false,
      subNetworkIdentifier: true,
      nodeVersion: '0.73.0',
      maxTransactionsInBlock: 10,
      nodeRefreshIntervalMs: 600_000,
      shard: 1n,
    });
  });

  it("take the nodes as a JSON map or in the reference's host:port:account text", () => {
    const expected = new Map([
      ['10.0.0.1:50211', entityOf(0n, 0n, 3n)],
      ['10.0.0.2:50211', entityOf(0n, 0n, 4n)],
    ]);
    expect(fromEnv({ HIERO_MIRROR_ROSETTA_NODES: '10.0.0.1:50211:0.0.3, 10.0.0.2:50211:0.0.4' }).nodes).toEqual(
      expected,
    );
    expect(
      fromEnv({ HIERO_MIRROR_ROSETTA_NODES: '{"10.0.0.1:50211":"0.0.3","10.0.0.2:50211":"0.0.4"}' }).nodes,
    ).toEqual(expected);
  });

  it('fail with the setting named when a value cannot be used', () => {
    expect(() => fromEnv({ HIERO_MIRROR_ROSETTA_NODES: '10.0.0.1:0.0.3' })).toThrow(
      'Invalid node string 10.0.0.1:0.0.3',
    );
    expect(() => fromEnv({ HIERO_MIRROR_ROSETTA_NODES: '{"10.0.0.1:50211":"0.0.x"}' })).toThrow(
      'invalid node account id 0.0.x',
    );
    expect(() => fromEnv({ HIERO_MIRROR_ROSETTA_RESPONSE_MAXTRANSACTIONSINBLOCK: '-1' })).toThrow(
      'response.maxTransactionsInBlock',
    );
  });
});
