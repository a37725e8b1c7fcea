/** What a subscriber kind may subscribe to on the bench's ledger. */
export interface BenchTargets {
  /** `http://host:port` of the Worker. */
  readonly baseUrl: string;
  /** Topic ids (`0.0.n`) with messages, busiest first. */
  readonly topics: readonly string[];
  /** Account ids (`0.0.n`) with transfers, busiest first. */
  readonly accounts: readonly string[];
  /** `host:port` of the gRPC API. */
  readonly grpcAddress?: string;
}

/** Called for every row a subscriber receives: when it arrived (`performance.timeOrigin + now()` ms) and its timestamp. */
export type Report = (receivedAtMs: number, consensusNs: bigint) => void;

export interface Subscribers {
  close(): Promise<void>;
}

/**
 * A kind of subscriber the bench can run (`--subscribers ws=1000,grpc=100`): it opens `count` subscribers spread over
 * the targets, following live rows only, and reports each row it receives.
 */
export interface SubscriberKind {
  readonly name: string;
  open(targets: BenchTargets, count: number, report: Report): Promise<Subscribers>;
}

/** `ws=1000,grpc=100` as kind names and counts, in order; an unknown kind or a bad count is an error. */
export function parseSubscribers(
  text: string,
  kinds: ReadonlyMap<string, SubscriberKind>,
): { kind: SubscriberKind; count: number }[] {
  return text.split(',').map((part) => {
    const [name = '', count = ''] = part.split('=');
    const kind = kinds.get(name.trim());
    if (!kind) throw new Error(`--subscribers: unknown kind "${name}" (known: ${[...kinds.keys()].join(', ')})`);
    if (!/^\d+$/.test(count.trim()) || Number(count) < 1) {
      throw new Error(`--subscribers: "${part}" needs a positive count`);
    }
    return { kind, count: Number(count) };
  });
}
