import { describe, expect, it } from 'vitest';
import { buildConfig } from './config.ts';
import { configFromEnv } from './env-settings.ts';
import { web3Settings } from './web3.ts';

describe('web3Settings', () => {
  it('has the reference defaults', () => {
    const settings = web3Settings(buildConfig());
    expect(settings).toEqual({
      evm: {
        chainId: 296n,
        network: 'TESTNET',
        maxGasLimit: 15_000_000n,
        validatePayerBalance: false,
        shard: 0n,
        realm: 0n,
      },
      requestTimeoutMs: 10_000,
      throttle: { requestsPerSecond: 500, gasPerSecond: 7_500_000_000n, gasLimitRefundPercent: 100 },
      opcodes: { enabled: false, requestsPerSecond: 1 },
    });
  });

  it('reads the opcode tracer switch and its bucket from HIERO_MIRROR_WEB3_* variables', () => {
    const settings = web3Settings(
      configFromEnv({
        HIERO_MIRROR_WEB3_OPCODE_TRACER_ENABLED: 'true',
        HIERO_MIRROR_WEB3_THROTTLE_OPCODEREQUESTSPERSECOND: '3',
      }),
    );
    expect(settings.opcodes).toEqual({ enabled: true, requestsPerSecond: 3 });
  });

  it('reads HIERO_MIRROR_WEB3_* variables named after the reference settings', () => {
    const settings = web3Settings(
      configFromEnv({
        HIERO_MIRROR_WEB3_EVM_NETWORK: 'mainnet',
        HIERO_MIRROR_WEB3_EVM_MAXGASLIMIT: '30000000',
        HIERO_MIRROR_WEB3_EVM_VALIDATEPAYERBALANCE: 'true',
        HIERO_MIRROR_WEB3_REQUESTTIMEOUT: '2s',
        HIERO_MIRROR_WEB3_THROTTLE_REQUESTSPERSECOND: '100',
        HIERO_MIRROR_WEB3_THROTTLE_GASPERSECOND: '1500000000',
        HIERO_MIRROR_WEB3_THROTTLE_GASLIMITREFUNDPERCENT: '50',
        HIERO_MIRROR_COMMON_REALM: '2',
      }),
    );
    expect(settings.evm).toMatchObject({ chainId: 295n, network: 'MAINNET', maxGasLimit: 30_000_000n, realm: 2n });
    expect(settings.evm.validatePayerBalance).toBe(true);
    expect(settings.requestTimeoutMs).toBe(2000);
    expect(settings.throttle).toEqual({
      requestsPerSecond: 100,
      gasPerSecond: 1_500_000_000n,
      gasLimitRefundPercent: 50,
    });
  });

  it('refuses a setting out of its range, naming it', () => {
    const config = buildConfig({ web3: { throttle: { requestsPerSecond: 0 } } });
    expect(() => web3Settings(config)).toThrow(/throttle\.requestsPerSecond/);
    expect(() => web3Settings(buildConfig({ web3: { evm: { network: 'DEVNET' } } }))).toThrow(/evm\.network/);
  });
});
