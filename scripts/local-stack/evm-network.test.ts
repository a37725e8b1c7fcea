import { describe, expect, it } from 'vitest';
import { simulatedChainId } from '../../simulator/evm/ethereum-tx.ts';
import { buildConfig } from '../../workers/config/config.ts';
import { configFromEnv } from '../../workers/config/env-settings.ts';
import { web3Settings } from '../../workers/config/web3.ts';
import { localEvmNetwork } from './evm-network.ts';

/** The chain ids the Worker's EVM and the simulated network take from one environment. */
function chainsOf(env: NodeJS.ProcessEnv, simulated: boolean) {
  const network = localEvmNetwork(env, simulated);
  const vars = network ? { HIERO_MIRROR_WEB3_EVM_NETWORK: network } : {};
  return {
    mirror: web3Settings(network ? configFromEnv(vars) : buildConfig()).evm.chainId,
    simulator: simulatedChainId(env.HIERO_MIRROR_WEB3_EVM_NETWORK),
  };
}

describe('localEvmNetwork', () => {
  it('runs the mirror on the simulated network chain, 298, when nothing is set', () => {
    expect(chainsOf({}, true)).toEqual({ mirror: 298n, simulator: 298n });
  });

  it('gives the simulator and the mirror the network the variable names', () => {
    expect(chainsOf({ HIERO_MIRROR_WEB3_EVM_NETWORK: 'testnet' }, true)).toEqual({ mirror: 296n, simulator: 296n });
  });

  it('leaves the Worker default (testnet) when no simulated network runs', () => {
    expect(localEvmNetwork({}, false)).toBeUndefined();
    expect(chainsOf({}, false).mirror).toBe(296n);
  });
});
