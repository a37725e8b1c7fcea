import { z } from 'zod';
import { CHAIN_IDS } from '../../common/chain-ids.ts';
import type { EvmSettings } from '../evm/types.ts';
import type { Config } from './config.ts';
import { parseDurationNs } from './config.ts';

/** The throttles of POST /api/v1/contracts/call (`hiero.mirror.web3.throttle.*`). */
export interface ThrottleSettings {
  readonly requestsPerSecond: number;
  /** Gas a second before scaling (the bucket holds it divided by 10,000). */
  readonly gasPerSecond: bigint;
  readonly gasLimitRefundPercent: number;
}

/** GET /api/v1/contracts/results/{id}/opcodes: `opcode.tracer.enabled` and `throttle.opcodeRequestsPerSecond`. */
export interface OpcodeSettings {
  readonly enabled: boolean;
  /** The tracer's own request bucket, apart from the call buckets. */
  readonly requestsPerSecond: number;
}

export interface Web3Settings {
  readonly evm: EvmSettings;
  readonly requestTimeoutMs: number;
  readonly throttle: ThrottleSettings;
  readonly opcodes: OpcodeSettings;
}

const integer = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform((value) => BigInt(value));

/** `requestTimeout`: milliseconds as the reference's docs give it, or a duration text (`10s`). */
const milliseconds = z.union([
  z.number().int().positive(),
  z.string().transform((text, ctx) => {
    try {
      return Math.ceil(parseDurationNs(text) / 1_000_000);
    } catch {
      ctx.addIssue({ code: 'custom', message: `invalid duration ${text}` });
      return z.NEVER;
    }
  }),
]);

const web3Schema = z.object({
  evm: z.object({
    network: z
      .string()
      .transform((name) => name.toUpperCase())
      .pipe(z.enum(['MAINNET', 'TESTNET', 'PREVIEWNET', 'OTHER'])),
    maxGasLimit: integer.refine((gas) => gas >= 21_000n, 'must be at least 21000'),
    validatePayerBalance: z.boolean(),
  }),
  opcode: z.object({ tracer: z.object({ enabled: z.boolean() }) }),
  requestTimeout: milliseconds,
  throttle: z.object({
    requestsPerSecond: z.number().int().min(1),
    opcodeRequestsPerSecond: z.number().int().min(1),
    gasPerSecond: integer.refine((gas) => gas >= 21_000n && gas <= 10_000_000_000_000n, 'out of range'),
    gasLimitRefundPercent: z.number().min(0).max(100),
  }),
});

const parsed = new WeakMap<Config, Web3Settings>();

/** The web3 settings of `config`, checked once per settings object; a bad value fails every call with its path. */
export function web3Settings(config: Config): Web3Settings {
  const known = parsed.get(config);
  if (known) return known;
  const result = web3Schema.safeParse(config.web3);
  if (!result.success) throw new Error(`invalid hiero.mirror.web3 settings: ${z.prettifyError(result.error)}`);
  const { evm, opcode, requestTimeout, throttle } = result.data;
  const settings: Web3Settings = {
    evm: {
      chainId: CHAIN_IDS[evm.network],
      network: evm.network,
      maxGasLimit: evm.maxGasLimit,
      validatePayerBalance: evm.validatePayerBalance,
      shard: BigInt(config.common.shard),
      realm: BigInt(config.common.realm),
    },
    requestTimeoutMs: requestTimeout,
    throttle: {
      requestsPerSecond: throttle.requestsPerSecond,
      gasPerSecond: throttle.gasPerSecond,
      gasLimitRefundPercent: throttle.gasLimitRefundPercent,
    },
    opcodes: { enabled: opcode.tracer.enabled, requestsPerSecond: throttle.opcodeRequestsPerSecond },
  };
  parsed.set(config, settings);
  return settings;
}
