/**
 * The reference mirror node's REST settings (`hiero.mirror.rest.*`) with its production defaults.
 * Durations are given both as the reference writes them and in nanoseconds (`*Ns`); the `*Ns` value is the one used.
 */
export const DEFAULT_CONFIG = {
  response: {
    limit: {
      default: 25,
      max: 100,
      tokenBalance: { multipleAccounts: 50, singleAccount: 1000 },
    },
    enableDelegationAddress: false,
    compression: true,
    includeHostInLink: false,
  },
  query: {
    bindTimestampRange: false,
    topicMessageLookup: false,
    maxRepeatedQueryParameters: 100,
    strictTimestampParam: true,
    maxTimestampRange: '7d',
    maxTimestampRangeNs: 604_800_000_000_000,
    maxTransactionsTimestampRange: '60d',
    maxTransactionsTimestampRangeNs: 5_184_000_000_000_000,
    maxTransactionConsensusTimestampRange: '35m',
    maxTransactionConsensusTimestampRangeNs: 2_100_000_000_000,
    maxScheduledTransactionConsensusTimestampRange: '89285m',
    maxScheduledTransactionConsensusTimestampRangeNs: 5_357_100_000_000_000,
    maxRecordFileCloseInterval: '10s',
    maxRecordFileCloseIntervalNs: 10_000_000_000,
    maxValidStartTimestampDrift: '1s',
    maxValidStartTimestampDriftNs: 1_000_000_000,
    transactions: { precedingTransactionTypes: [11, 15] },
  },
  users: [] as { username: string; password: string; limit: number }[],
  /** edge-mirror's own settings (no reference equivalent): the edge cache, per-client rate limits, streams. */
  edge: {
    /**
     * `memoryBytes`: the per-isolate memory tier in front of the Cache API (0 turns it off). `finalMaxAge`: seconds
     * a final answer may be kept, at the edge and by browsers (docs/adr/0045). `staleWhileRevalidate`: seconds past
     * its max-age an answer that can still change may be served to a browser from the edge while it is read again
     * (0: never).
     */
    cache: { enabled: true, memoryBytes: 16 * 1024 * 1024, finalMaxAge: 31_536_000, staleWhileRevalidate: 120 },
    rateLimit: {
      enabled: true,
      /** Token buckets per client and route class: `rate` tokens a second, up to `burst` saved. */
      reads: { rate: 500, burst: 1000 },
      contractsCall: { rate: 50, burst: 100 },
      opcodes: { rate: 1, burst: 1 },
      /**
       * API keys the operator handed out (a secret in production): a request whose `x-api-key` is one of them is
       * limited as `name` at `rate`/`burst` for reads; any other key counts as no key.
       */
      apiKeys: [] as { key: string; name: string; rate: number; burst: number }[],
    },
    /**
     * WebSocket streams (`/api/v1/stream/...`): the tail looks for new record files every `interval` milliseconds
     * (the reference's gRPC listener interval), and a subscriber with more than `maxBufferSize` messages it has not
     * acknowledged is disconnected (the reference's listener buffer size).
     */
    stream: { interval: 500, maxBufferSize: 16384 },
    /**
     * `batch`: milliseconds a request line may wait to be written with the lines of the requests after it, in one
     * console call (0: each line at once, as production wants it: Workers Logs parses one JSON object per call). The
     * local stack sets it, where every console call is a write to a pipe that wakes Miniflare's process (docs/adr/0055).
     */
    log: { batch: 0 },
  },
  common: { shard: 0, realm: 0 },
  /**
   * The reference's Rosetta settings (`hiero.mirror.rosetta.*`) that the Rosetta API (`/rosetta`) reads
   * (workers/rosetta/settings.ts); its database, HTTP server and log settings have no meaning in a Worker.
   */
  rosetta: {
    /** The network name of the network identifier (lowercased): `demo`, `mainnet`, `previewnet`, `testnet`, … */
    network: 'demo',
    /** Offline: only `/network/list`, `/network/options` and the construction endpoints that need no network. */
    online: true,
    /** A sub-network identifier `shard <shard> realm <realm>` in the network identifier. */
    feature: { subNetworkIdentifier: false },
    /**
     * The consensus nodes `/construction/submit` sends to: `{"<host>:<port>": "<shard>.<realm>.<num>"}`, or the
     * reference's text form `host:port:0.0.3,…`; empty: the nodes of the latest address book.
     */
    nodes: {} as Record<string, string> | string,
    /** How often the nodes are read from the address book again (when `nodes` is empty). */
    nodeRefreshInterval: '24h',
    /** `version.node_version` of `/network/options` (a string on the wire; the reference's YAML writes `0`). */
    nodeVersion: 0 as number | string,
    /** Transactions listed in full in a `/block` answer; the rest only by hash (`other_transactions`). */
    response: { maxTransactionsInBlock: 6000 },
  },
  /** The reference's web3 settings (`hiero.mirror.web3.*`) that POST /api/v1/contracts/call reads (workers/config/web3.ts). */
  web3: {
    evm: {
      /** MAINNET, TESTNET, PREVIEWNET or OTHER: the chain id and the EVM versions by block. */
      network: 'TESTNET',
      maxGasLimit: 15_000_000,
      validatePayerBalance: false,
    },
    /** GET /api/v1/contracts/results/{id}/opcodes: off by default, as in the reference (404 while off). */
    opcode: { tracer: { enabled: false } },
    /** Milliseconds a call may take before its next database statement is refused (503). */
    requestTimeout: 10_000,
    throttle: {
      requestsPerSecond: 500,
      /** The opcode tracer's own request bucket. */
      opcodeRequestsPerSecond: 1,
      /** The reference's code default (its docs table says 1,500,000,000). */
      gasPerSecond: 7_500_000_000,
      gasLimitRefundPercent: 100,
    },
  },
};
