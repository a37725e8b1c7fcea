/**
 * A live run with consensus nodes: the nodes' gRPC servers, and each period of the run as a loop until the period's
 * wall-clock end in which clients' transactions go to consensus as they arrive (at the consensus time of the wall
 * clock) and the generated load, when on, fills the time up to now. Without the load only the network's own system
 * file updates run beside the clients' transactions.
 */
import type { SimEvm } from '../evm/evm.ts';
import type { Mix } from '../mix/mix.ts';
import type { Network } from '../network/network.ts';
import { ConsensusNode } from './consensus.ts';
import { startNodeServers } from './server.ts';

/** How often a period looks for work when no client transaction wakes it. */
const TICK_MS = 50;

export class LiveNodes {
  readonly consensus: ConsensusNode;
  readonly addresses: readonly string[];
  readonly close: () => Promise<void>;

  constructor(consensus: ConsensusNode, addresses: readonly string[], close: () => Promise<void>) {
    this.consensus = consensus;
    this.addresses = addresses;
    this.close = close;
  }

  /** Resolves after `ms`, on abort, or as soon as a client's transaction is accepted. */
  waitForWork(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.consensus.onAccepted = undefined;
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.consensus.onAccepted = done;
      signal?.addEventListener('abort', done);
    });
  }
}

export async function startLiveNodes(
  net: Network,
  evm: SimEvm,
  nodeCount: number,
  node: { host: string; basePort: number },
  log: (fields: Record<string, unknown>) => void = () => {},
): Promise<LiveNodes> {
  const consensus = new ConsensusNode(net, evm, log);
  const servers = await startNodeServers({ consensus, evm, nodeCount, host: node.host, basePort: node.basePort, log });
  return new LiveNodes(consensus, servers.addresses, () => servers.close());
}

export async function runPeriodLive(
  live: LiveNodes,
  net: Network,
  mix: Mix,
  period: {
    readonly load: boolean;
    /** The period's end in consensus time, and in wall-clock milliseconds. */
    readonly periodEnd: bigint;
    readonly wallEnd: number;
    readonly consensusAt: (wallMs: number) => bigint;
    readonly signal?: AbortSignal;
  },
): Promise<void> {
  for (;;) {
    const wallNow = Date.now();
    const at = period.consensusAt(Math.min(wallNow, period.wallEnd));
    const until = at < period.periodEnd ? at : period.periodEnd;
    await live.consensus.handleQueued(until);
    if (period.load) while (net.now < until) await mix.next();
    else await mix.nextSystemUpdate();
    if (wallNow >= period.wallEnd || period.signal?.aborted) return;
    if (live.consensus.waiting === 0)
      await live.waitForWork(Math.min(TICK_MS, period.wallEnd - wallNow), period.signal);
  }
}
