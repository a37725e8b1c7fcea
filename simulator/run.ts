/**
 * Runs the simulated network: each period of `periodMs` consensus time becomes one record file (and/or one
 * block), written as soon as its transactions are generated. In live mode consensus time follows the wall
 * clock and each file appears when its period has passed, as on the real network.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { continuedSeed, readChainState, writeChainState } from './chain-state.ts';
import { SimEvm } from './evm/evm.ts';
import { installedState } from './evm/installed.ts';
import { exportLedger } from './ledger/export.ts';
import { restoreLedger, saveLedger } from './ledger/snapshot.ts';
import { Mix, type MixWeights, type PinnedMix } from './mix/mix.ts';
import { keyGenesisAccounts } from './network/genesis.ts';
import { Network, type SimItem } from './network/network.ts';
import { createGenesisFiles } from './network/system-files.ts';
import { runPeriodLive, startLiveNodes } from './node/live-period.ts';
import { Random } from './random.ts';
import { ledgerBalances, writeBalanceFile } from './write/balance-file.ts';
import { BlockStreamWriter } from './write/block-stream.ts';
import { ADDRESS_BOOK_FILE, LEDGER_FILE } from './write/layout.ts';
import { addressBookBytes, loadNodes } from './write/node-keys.ts';
import { RecordStreamWriter } from './write/record-stream.ts';

const LIVE_LEDGER_EVERY = 15;

export type StreamFormat = 'record' | 'block' | 'both';

export interface SimulationOptions {
  readonly out: string;
  readonly tps: number;
  /**
   * Number of periods (files) of traffic to write; undefined runs until `signal` aborts (live mode). A new chain
   * writes its genesis file before them.
   */
  readonly files: number | undefined;
  readonly seed: string;
  readonly format: StreamFormat;
  readonly live: boolean;
  /** Extend the chain an earlier run left in `out` (its chain.json) instead of requiring an empty directory. */
  readonly resume?: boolean;
  readonly nodes: number;
  /** Changes to the mix's weights (tests that need many transactions of one family). */
  readonly weights?: Partial<MixWeights>;
  /** The whole mix instead (a benchmark's fixed workload); `weights` is then ignored. */
  readonly pinnedMix?: PinnedMix;
  readonly startNs: bigint;
  readonly periodMs: number;
  readonly signal?: AbortSignal;
  readonly onFile?: (file: FileSummary) => void;
  /** Live runs: the consensus nodes' gRPC endpoints, which accept clients' signed transactions (node/). */
  readonly node?: { readonly host: string; readonly basePort: number };
  /** Whether the generated load runs (default true); without it only clients' transactions and system updates. */
  readonly load?: boolean;
  /** Told once the nodes listen, with their addresses. */
  readonly onNodes?: (addresses: readonly string[]) => void;
  /** Where the nodes' log lines go (one per transaction handled); nowhere when absent. */
  readonly nodeLog?: (fields: Record<string, unknown>) => void;
}

export interface FileSummary {
  readonly index: number;
  readonly name: string;
  readonly count: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
}

export interface SimulationSummary {
  readonly files: number;
  readonly transactions: number;
  readonly lastConsensusNs: bigint;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export async function simulate(options: SimulationOptions): Promise<SimulationSummary> {
  const nodes = loadNodes(options.nodes);
  mkdirSync(options.out, { recursive: true });
  const chain = readChainState(options.out);
  if (chain && !options.resume) {
    throw new Error(
      `${options.out} holds the streams of an earlier run: pass --continue to extend them, or use an empty directory`,
    );
  }
  if (chain && chain.nodes !== options.nodes) {
    throw new Error(`${options.out} holds a network of ${chain.nodes} nodes: continue it with --nodes ${chain.nodes}`);
  }
  const random = new Random(chain ? continuedSeed(options.seed, chain) : options.seed);
  // A continued chain starts after the last transaction it already has, from the model the earlier run saved.
  const lastNs = chain ? BigInt(chain.lastConsensusNs) : undefined;
  const startNs = lastNs !== undefined && lastNs >= options.startNs ? lastNs + 1_000_000n : options.startNs;
  const firstBlock = chain ? BigInt(chain.nextBlock) : 0n;
  writeFileSync(path.join(options.out, ADDRESS_BOOK_FILE), addressBookBytes(nodes, options.node?.basePort));
  const ledger = chain ? restoreLedger(chain.ledger, options.nodes) : undefined;
  const net = new Network({
    random,
    nodeCount: options.nodes,
    tps: options.tps,
    startNs,
    ...(ledger ? { ledger } : {}),
  });
  // The key sequence moves on as it did when 0.0.2 drew its own key, so every later key is the same.
  if (!chain) net.keys.next('ed25519');
  keyGenesisAccounts(net.ledger);
  const periodNs = BigInt(options.periodMs) * 1_000_000n;
  // A new network's first block is its genesis: the system files the node creates then, in the period before the
  // traffic starts (nobody can send a transaction to a network that is not up yet). A JSON-RPC relay asks
  // `/network/fees` for the whole second a block starts in, so a contract transaction's block must start after them.
  const genesisNs = chain ? undefined : startNs - periodNs;
  if (genesisNs !== undefined) createGenesisFiles(net, genesisNs);
  const evm = new SimEvm();
  await evm.install(installedState(net.ledger));
  const choice = options.pinnedMix ? { pinned: options.pinnedMix } : { weights: options.weights ?? {} };
  const mix = new Mix(net, evm, choice, chain?.mix);
  const load = options.load ?? true;
  const live =
    options.node && options.live
      ? await startLiveNodes(net, evm, options.nodes, options.node, options.nodeLog)
      : undefined;
  if (live) options.onNodes?.(live.addresses);
  const startHash = chain ? new Uint8Array(Buffer.from(chain.recordRunningHash, 'hex')) : undefined;
  const records = options.format === 'block' ? undefined : new RecordStreamWriter(options.out, nodes, startHash);
  // The record stream never states the genesis state (the treasury's supply, the system accounts): a new chain's
  // balance file does, just before its genesis block, so it precedes every record file. A continued chain has it.
  if (records && genesisNs !== undefined) {
    writeBalanceFile(options.out, nodes, genesisNs - 1n, ledgerBalances(net.ledger));
  }
  const balances = {
    hbar: new Map([...net.ledger.accounts.values()].map((a) => [a.num, a.balance])),
    tokens: net.ledger.tokenBalances,
  };
  const blocks =
    options.format === 'record' ? undefined : new BlockStreamWriter(options.out, nodes, balances, chain?.blocks);
  const wallStart = Date.now();
  let periodEnd = startNs + periodNs;
  let transactions = 0;
  /** Files written by this run, the genesis file included. */
  let filesWritten = 0;
  let lastEndNs = 0n;
  const saveChain = () =>
    writeChainState(options.out, {
      recordRunningHash: Buffer.from(records?.runningHash ?? startHash ?? new Uint8Array(48)).toString('hex'),
      nextBlock: String(firstBlock + BigInt(filesWritten)),
      lastConsensusNs: String(lastEndNs),
      nextEntity: String(net.ledger.nextEntityNumber),
      blocks: blocks?.chainState() ?? chain?.blocks,
      nodes: options.nodes,
      mix: mix.state(),
      ledger: saveLedger(net.ledger),
    });
  const writeFile = (items: readonly SimItem[], fileStartNs: bigint, endNs: bigint) => {
    const blockNumber = firstBlock + BigInt(filesWritten);
    const written = records?.write(items, fileStartNs, blockNumber);
    blocks?.write(items, fileStartNs, blockNumber);
    transactions += items.length;
    const name = written?.name ?? `block ${blockNumber}`;
    options.onFile?.({ index: filesWritten, name, count: items.length, startNs: fileStartNs, endNs });
    filesWritten += 1;
    lastEndNs = endNs;
    // A live run may be killed at any moment, so its model follows every file; a run of a fixed number of files
    // saves it once, when it stops (saving a large ledger after every file took a fifth of a long run).
    if (options.live) saveChain();
  };
  if (genesisNs !== undefined) {
    const items = net.drain();
    writeFile(items, genesisNs, items.at(-1)?.consensusNs ?? genesisNs);
  }
  // Consensus time of a wall-clock instant, for transactions clients submit during a live run.
  const consensusAt = (wallMs: number) => startNs + BigInt(wallMs - wallStart) * 1_000_000n;
  let index = 0;
  try {
    for (; options.files === undefined || index < options.files; index++) {
      if (options.signal?.aborted) break;
      if (live) {
        await runPeriodLive(live, net, mix, {
          load,
          periodEnd,
          wallEnd: wallStart + (index + 1) * options.periodMs,
          consensusAt,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } else if (load) {
        while (net.now < periodEnd) await mix.next();
      } else {
        await mix.nextSystemUpdate();
      }
      const items: SimItem[] = net.drain();
      // A file with no transaction is named after its period's start, unless a transaction of an earlier file already
      // ran past it (one step of a slow mix can cross several periods): names must follow the files' order.
      const emptyNs = periodEnd - periodNs > lastEndNs ? periodEnd - periodNs : lastEndNs + 1n;
      const fileStartNs = items[0]?.consensusNs ?? emptyNs;
      if (options.live) await sleep(wallStart + (index + 1) * options.periodMs - Date.now(), options.signal);
      writeFile(items, fileStartNs, items.at(-1)?.consensusNs ?? fileStartNs);
      periodEnd += periodNs;
      // A live run refreshes its model every half minute (and on exit), not with every file: it only grows.
      if (options.live && index % LIVE_LEDGER_EVERY === LIVE_LEDGER_EVERY - 1) writeLedger(options.out, net);
    }
  } finally {
    await live?.close();
  }
  if (!options.live && filesWritten > 0) saveChain();
  writeLedger(options.out, net);
  return { files: filesWritten, transactions, lastConsensusNs: net.now };
}

function writeLedger(out: string, net: Network): void {
  const file = path.join(out, LEDGER_FILE);
  // Through a rename, so a reader never sees a half-written model.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(exportLedger(net.ledger), null, 1)}\n`);
  renameSync(`${file}.tmp`, file);
}
