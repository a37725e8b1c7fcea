import { z } from 'zod';
import type { Config } from '../config/config.ts';
import { parseDurationNs } from '../config/config.ts';
import { type AccountNum, parseEntityIdText } from './domain/entity-id.ts';

/** The Rosetta settings (`hiero.mirror.rosetta.*`, and the network's shard and realm), checked. */
export interface RosettaSettings {
  /** Lowercased, as the reference lowercases it. */
  readonly network: string;
  readonly online: boolean;
  readonly subNetworkIdentifier: boolean;
  /** The consensus nodes by endpoint (`host:port`); empty: those of the latest address book. */
  readonly nodes: ReadonlyMap<string, AccountNum>;
  readonly nodeRefreshIntervalMs: number;
  readonly nodeVersion: string;
  readonly maxTransactionsInBlock: number;
  readonly shard: bigint;
  readonly realm: bigint;
}

/** `host:port:shard.realm.num` entries separated by commas: the reference's `HIERO_MIRROR_ROSETTA_NODES` text. */
function nodesFromText(text: string, ctx: z.RefinementCtx): Record<string, string> {
  const nodes: Record<string, string> = {};
  for (const node of text.split(',')) {
    const parts = node.trim().split(':');
    if (parts.length !== 3) {
      ctx.addIssue({ code: 'custom', message: `Invalid node string ${node}` });
      return z.NEVER;
    }
    nodes[`${parts[0]}:${parts[1]}`] = parts[2] as string;
  }
  return nodes;
}

const durationMs = z.string().transform((text, ctx) => {
  try {
    return Math.ceil(parseDurationNs(text) / 1_000_000);
  } catch {
    ctx.addIssue({ code: 'custom', message: `invalid duration ${text}` });
    return z.NEVER;
  }
});

const rosettaSchema = z.object({
  network: z.string().min(1),
  online: z.boolean(),
  feature: z.object({ subNetworkIdentifier: z.boolean() }),
  nodes: z.union([z.record(z.string(), z.string()), z.string()]).transform((value, ctx) => {
    const nodes = typeof value === 'string' ? (value.trim() === '' ? {} : nodesFromText(value, ctx)) : value;
    const byEndpoint = new Map<string, AccountNum>();
    for (const [endpoint, account] of Object.entries(nodes)) {
      const id = parseEntityIdText(account);
      if (!id) {
        ctx.addIssue({ code: 'custom', message: `invalid node account id ${account}` });
        return z.NEVER;
      }
      byEndpoint.set(endpoint, id);
    }
    return byEndpoint;
  }),
  nodeRefreshInterval: durationMs,
  // YAML and variables may give it as a number (`nodeVersion: 0`); it is a string on the wire.
  nodeVersion: z.union([z.string(), z.number()]).transform(String),
  response: z.object({ maxTransactionsInBlock: z.number().int().min(0) }),
});

const parsed = new WeakMap<Config, RosettaSettings>();

/** The Rosetta settings of `config`, checked once per settings object; a bad value fails every request with its path. */
export function rosettaSettings(config: Config): RosettaSettings {
  const known = parsed.get(config);
  if (known) return known;
  const result = rosettaSchema.safeParse(config.rosetta);
  if (!result.success) throw new Error(`invalid hiero.mirror.rosetta settings: ${z.prettifyError(result.error)}`);
  const rosetta = result.data;
  const settings: RosettaSettings = {
    network: rosetta.network.toLowerCase(),
    online: rosetta.online,
    subNetworkIdentifier: rosetta.feature.subNetworkIdentifier,
    nodes: rosetta.nodes,
    nodeRefreshIntervalMs: rosetta.nodeRefreshInterval,
    nodeVersion: rosetta.nodeVersion,
    maxTransactionsInBlock: rosetta.response.maxTransactionsInBlock,
    shard: BigInt(config.common.shard),
    realm: BigInt(config.common.realm),
  };
  parsed.set(config, settings);
  return settings;
}
