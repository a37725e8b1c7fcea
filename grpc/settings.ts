/**
 * The gRPC server's settings: the reference's `hiero.mirror.grpc.*` tree with its defaults and bounds, read from
 * variables named after the path in upper case (`HIERO_MIRROR_GRPC_LISTENER_INTERVAL=250ms`). Durations take the
 * reference's form (`500ms`, `2s`, `1m`; a bare number is milliseconds, as in Spring). The shard and realm come
 * from `HIERO_MIRROR_COMMON_SHARD` / `_REALM`, as for the REST API.
 */
import { z } from 'zod';

export interface GrpcSettings {
  readonly port: number;
  /** A subscription to a topic the database does not know is refused with NOT_FOUND. */
  readonly checkTopicExists: boolean;
  /** How often a subscription whose end time has passed checks whether it is complete. */
  readonly endTimeIntervalMs: number;
  /** The shared poll of new messages (the reference's `listener.*`). */
  readonly listener: { readonly intervalMs: number; readonly maxPageSize: number; readonly maxBufferSize: number };
  /** Historical messages (the reference's `retriever.*`): throttled pages, then unthrottled catch-up pages. */
  readonly retriever: {
    readonly maxPageSize: number;
    readonly pollingFrequencyMs: number;
    readonly unthrottledMaxPageSize: number;
  };
  readonly addressBook: { readonly pageSize: number; readonly pageDelayMs: number };
  readonly maxConcurrentCallsPerConnection: number;
  readonly statementTimeoutMs: number;
  readonly shard: bigint;
  readonly realm: bigint;
}

const duration = (minMs: number) =>
  z
    .string()
    .regex(/^\d+(ms|s|m|h)?$/, 'a duration such as 500ms, 2s or 1m')
    .transform((text) => {
      const [, digits = '0', unit = 'ms'] = /^(\d+)(ms|s|m|h)?$/.exec(text) ?? [];
      return Number(digits) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
    })
    .pipe(z.number().min(minMs));
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const bool = z.enum(['true', 'false']).transform((text) => text === 'true');
const id = z.string().regex(/^\d+$/).transform(BigInt);

/** Each variable with its default (the reference's) and how its text is read. */
const VARIABLES = {
  HIERO_MIRROR_GRPC_PORT: ['5600', int(0, 65535)],
  HIERO_MIRROR_GRPC_CHECKTOPICEXISTS: ['true', bool],
  HIERO_MIRROR_GRPC_ENDTIMEINTERVAL: ['30s', duration(1)],
  HIERO_MIRROR_GRPC_LISTENER_INTERVAL: ['500ms', duration(50)],
  HIERO_MIRROR_GRPC_LISTENER_MAXPAGESIZE: ['5000', int(32)],
  HIERO_MIRROR_GRPC_LISTENER_MAXBUFFERSIZE: ['16384', int(8192, 65536)],
  HIERO_MIRROR_GRPC_RETRIEVER_MAXPAGESIZE: ['1000', int(32)],
  HIERO_MIRROR_GRPC_RETRIEVER_POLLINGFREQUENCY: ['2s', duration(1)],
  HIERO_MIRROR_GRPC_RETRIEVER_UNTHROTTLED_MAXPAGESIZE: ['5000', int(1000)],
  HIERO_MIRROR_GRPC_ADDRESSBOOK_PAGESIZE: ['10', int(1)],
  HIERO_MIRROR_GRPC_ADDRESSBOOK_PAGEDELAY: ['250ms', duration(100)],
  HIERO_MIRROR_GRPC_NETTY_MAXCONCURRENTCALLSPERCONNECTION: ['5', int(1)],
  HIERO_MIRROR_GRPC_DB_STATEMENTTIMEOUT: ['10000', int(0)],
  HIERO_MIRROR_COMMON_SHARD: ['0', id],
  HIERO_MIRROR_COMMON_REALM: ['0', id],
} as const;

type Variable = keyof typeof VARIABLES;

/** The variables and their documented defaults (the README's gRPC table is checked against these). */
export const GRPC_SETTING_DEFAULTS: ReadonlyMap<string, string> = new Map(
  Object.entries(VARIABLES).map(([name, [fallback]]) => [name, fallback]),
);

/**
 * The settings `env` gives, with the `HIERO_MIRROR_GRPC_*` variables it sets that name no setting (ignored, for the
 * caller to log); or every variable it sets wrongly, one message each.
 */
export function readGrpcSettings(
  env: Readonly<Record<string, string | undefined>>,
): { settings: GrpcSettings; ignored: string[] } | { errors: string[] } {
  const errors: string[] = [];
  const read = <V extends Variable>(name: V): z.output<(typeof VARIABLES)[V][1]> => {
    const [fallback, schema] = VARIABLES[name];
    const result = schema.safeParse(env[name] ?? fallback);
    if (result.success) return result.data as z.output<(typeof VARIABLES)[V][1]>;
    errors.push(`${name}=${env[name]}: ${result.error.issues.map((issue) => issue.message).join(', ')}`);
    return schema.parse(fallback) as z.output<(typeof VARIABLES)[V][1]>;
  };
  const settings: GrpcSettings = {
    port: read('HIERO_MIRROR_GRPC_PORT'),
    checkTopicExists: read('HIERO_MIRROR_GRPC_CHECKTOPICEXISTS'),
    endTimeIntervalMs: read('HIERO_MIRROR_GRPC_ENDTIMEINTERVAL'),
    listener: {
      intervalMs: read('HIERO_MIRROR_GRPC_LISTENER_INTERVAL'),
      maxPageSize: read('HIERO_MIRROR_GRPC_LISTENER_MAXPAGESIZE'),
      maxBufferSize: read('HIERO_MIRROR_GRPC_LISTENER_MAXBUFFERSIZE'),
    },
    retriever: {
      maxPageSize: read('HIERO_MIRROR_GRPC_RETRIEVER_MAXPAGESIZE'),
      pollingFrequencyMs: read('HIERO_MIRROR_GRPC_RETRIEVER_POLLINGFREQUENCY'),
      unthrottledMaxPageSize: read('HIERO_MIRROR_GRPC_RETRIEVER_UNTHROTTLED_MAXPAGESIZE'),
    },
    addressBook: {
      pageSize: read('HIERO_MIRROR_GRPC_ADDRESSBOOK_PAGESIZE'),
      pageDelayMs: read('HIERO_MIRROR_GRPC_ADDRESSBOOK_PAGEDELAY'),
    },
    maxConcurrentCallsPerConnection: read('HIERO_MIRROR_GRPC_NETTY_MAXCONCURRENTCALLSPERCONNECTION'),
    statementTimeoutMs: read('HIERO_MIRROR_GRPC_DB_STATEMENTTIMEOUT'),
    shard: read('HIERO_MIRROR_COMMON_SHARD'),
    realm: read('HIERO_MIRROR_COMMON_REALM'),
  };
  const ignored = Object.keys(env)
    .filter((name) => name.startsWith('HIERO_MIRROR_GRPC_') && !(name in VARIABLES))
    .sort();
  return errors.length > 0 ? { errors } : { settings, ignored };
}
