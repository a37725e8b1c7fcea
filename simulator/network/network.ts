/**
 * The simulated consensus network: it stamps each submitted transaction with a consensus time, charges its
 * fee, lets the transaction's family module work out the outcome against the ledger, and produces the signed
 * transaction bytes and the record exactly as a node would put them into a record stream file.
 */
import { hapi } from '../../proto/hapi.ts';
import { sha384 } from '../hash.ts';
import { accountPb, i64, nodeAccount, STAKING_REWARD_ACCOUNT, timestampPb } from '../ledger/ids.ts';
import { type ExchangeRate, Ledger, type LedgerKey } from '../ledger/ledger.ts';
import type { Random } from '../random.ts';
import { feeCredits, feeOf, type Priced } from './fees.ts';
import { KeyFactory, leafKeys, signaturePair } from './keys.ts';
import { HbarTransfers, type TokenTransfers } from './transfers.ts';

export const SUCCESS = 22;

/** One transaction as it goes into a stream: the wire bytes plus the plain objects the block writer reuses. */
export interface SimItem {
  readonly consensusNs: bigint;
  readonly body: Record<string, unknown>;
  readonly signedTransactionBytes: Uint8Array;
  readonly record: Record<string, unknown>;
  readonly recordBytes: Uint8Array;
  /** TransactionSidecarRecord payloads (`state_changes`, `actions` or `bytecode`), without the timestamp. */
  readonly sidecars: readonly Record<string, unknown>[];
}

export interface Outcome {
  readonly status?: number;
  /** Hbar moved by the transaction itself (fees are added by the network). */
  readonly transfers?: HbarTransfers;
  /** Accounts whose debit was spent from an allowance (`is_approval`). */
  readonly approvals?: ReadonlySet<bigint>;
  readonly tokens?: TokenTransfers;
  readonly receipt?: Record<string, unknown>;
  readonly record?: Record<string, unknown>;
  readonly sidecars?: readonly Record<string, unknown>[];
  /** Replaces the scheduled price (contract transactions pay for gas). */
  readonly fee?: bigint;
}

export interface ExecuteContext {
  readonly consensusNs: bigint;
  readonly transactionId: Record<string, unknown>;
}

/**
 * A transaction a client signed and a node accepted: it goes into the stream as it came (its body, its signed
 * bytes), and its fee counts its real signatures.
 */
export interface WireTransaction {
  readonly body: Record<string, unknown>;
  readonly signedTransactionBytes: Uint8Array;
  readonly signatures: number;
  /** The node it was submitted to, whose account the fee's node share goes to. */
  readonly nodeId: number;
  readonly memo: string;
}

export interface Submission {
  readonly payer: bigint;
  /** A client's signed transaction; `body`, `memo`, `extraSigners` and `transactionId` are then not used. */
  readonly wire?: WireTransaction;
  /** The service body, e.g. `{ cryptoTransfer: {...} }`. */
  readonly body: Record<string, unknown>;
  /** Undefined for privileged system transactions, which pay no fee. */
  readonly price: Priced | undefined;
  readonly extraSigners?: readonly LedgerKey[];
  readonly memo?: string;
  /** Variable-size payload (message, file contents) that the fee charges per byte. */
  readonly payloadBytes?: number;
  /** Transaction id to use instead of a new one (scheduled executions; unsigned unless `signed`). */
  readonly transactionId?: Record<string, unknown>;
  /** The payer signs a transaction whose id the submitter chose (a chunk of a message, as the SDK submits it). */
  readonly signed?: boolean;
  /** Consensus time to use instead of the clock's next one (children). */
  readonly consensusNs?: bigint;
  readonly execute: (ctx: ExecuteContext) => Outcome | Promise<Outcome>;
  /** Transfers that depend on the fee charged (an account deletion sweeps what the fee left). */
  readonly afterFee?: (fee: bigint) => HbarTransfers;
}

const UTF8 = new TextEncoder();
const STAKING_PERIOD_NS = 60_000_000_000n;
const MAX_TRANSACTION_FEE = '200000000000';
const VALID_DURATION_SECONDS = '120';
/** The system admin account, the payer of what the node dispatches itself. */
const SYSTEM_ADMIN = 50n;
/** `hedera.transaction.maxValidDuration`, the valid duration of the node's own dispatches. */
const MAX_VALID_DURATION_SECONDS = 180;

export class Network {
  readonly ledger: Ledger;
  readonly random: Random;
  readonly nodeCount: number;
  readonly keys: KeyFactory;
  private readonly tps: number;
  private clockNs: bigint;
  private pending: SimItem[] = [];
  /** The nonce of the last transaction the node dispatched itself. */
  private systemNonce = 0;

  /** `ledger`: the model an earlier run saved, to carry on from; a new network's genesis state otherwise. */
  constructor(options: { random: Random; nodeCount: number; tps: number; startNs: bigint; ledger?: Ledger }) {
    this.random = options.random;
    this.nodeCount = options.nodeCount;
    this.tps = options.tps;
    this.clockNs = options.startNs;
    this.ledger = options.ledger ?? new Ledger(options.nodeCount);
    this.keys = new KeyFactory(options.random);
  }

  /** Consensus time the next transaction will get if submitted now. */
  get now(): bigint {
    return this.clockNs;
  }

  /** Whether a transaction went into the record file being written (a block's state before it is then not its own). */
  get fileStarted(): boolean {
    return this.pending.length > 0;
  }

  /** Moves the clock to the next transaction's consensus time: exponential gaps averaging 1/tps. */
  advanceClock(): bigint {
    const meanGap = 1e9 / this.tps;
    const gap = Math.max(1_000, Math.round(-Math.log(1 - this.random.next()) * meanGap));
    this.clockNs += BigInt(gap);
    return this.clockNs;
  }

  /** The items produced since the last call, in consensus order. */
  drain(): SimItem[] {
    const items = this.pending.sort((a, b) =>
      a.consensusNs < b.consensusNs ? -1 : a.consensusNs > b.consensusNs ? 1 : 0,
    );
    this.pending = [];
    return items;
  }

  private rateSet: { current: ExchangeRate; pb: Record<string, unknown> } | undefined;

  /** The receipt's exchange rates, rebuilt only when a file update changed them. */
  rateSetPb(): Record<string, unknown> {
    if (this.rateSet?.current !== this.ledger.exchangeRate) {
      const pb = (rate: ExchangeRate) => ({
        hbarEquiv: rate.hbarEquiv,
        centEquiv: rate.centEquiv,
        expirationTime: { seconds: i64(rate.expirationSeconds) },
      });
      this.rateSet = {
        current: this.ledger.exchangeRate,
        pb: { currentRate: pb(this.ledger.exchangeRate), nextRate: pb(this.ledger.nextExchangeRate) },
      };
    }
    return this.rateSet.pb;
  }

  /**
   * Staking rewards, paid from 0.0.800 to a staked account the first time its balance changes in a new staking
   * period (one minute, as local networks configure it): 0.01 % of its balance, as far as 0.0.800 can pay.
   * They are added to `hbar` and returned as the record's `paid_staking_rewards`.
   */
  private stakingRewards(hbar: HbarTransfers, consensusNs: bigint): Record<string, unknown>[] {
    const period = consensusNs / STAKING_PERIOD_NS;
    const paid: Record<string, unknown>[] = [];
    let available =
      this.ledger.account(STAKING_REWARD_ACCOUNT).balance + (hbar.amounts.get(STAKING_REWARD_ACCOUNT) ?? 0n);
    for (const num of [...hbar.amounts.keys()].sort((a, b) => (a < b ? -1 : 1))) {
      // Contracts are never staked here: only accounts earn rewards.
      const account = this.ledger.accounts.get(num);
      if (account?.stakedNodeId === undefined || account.deleted) continue;
      const last = account.lastRewardPeriod;
      account.lastRewardPeriod = period;
      if (last === undefined || last >= period) continue;
      const reward = account.balance / 10_000n;
      if (reward <= 0n || reward > available) continue;
      available -= reward;
      hbar.add(STAKING_REWARD_ACCOUNT, -reward).add(num, reward);
      paid.push({ accountID: accountPb(num), amount: i64(reward) });
    }
    return paid;
  }

  /**
   * A transaction the node dispatches itself, as at genesis (`SystemTransactions`' system context): paid by the system
   * admin, its id told apart by a nonce, no node account, unsigned and free, at `consensusNs`. It draws nothing from
   * the random source, so the transactions after it are the ones a network without it would have had.
   */
  dispatchSystem(body: Record<string, unknown>, consensusNs: bigint, receipt: Record<string, unknown>): SimItem {
    this.systemNonce += 1;
    const transactionId = {
      transactionValidStart: timestampPb(consensusNs),
      accountID: accountPb(SYSTEM_ADMIN),
      nonce: this.systemNonce,
    };
    const fullBody = {
      transactionID: transactionId,
      transactionValidDuration: { seconds: MAX_VALID_DURATION_SECONDS },
      ...body,
    };
    const types = hapi();
    const signedTransactionBytes = types.SignedTransaction.encode({
      bodyBytes: types.TransactionBody.encode(fullBody).finish(),
    }).finish();
    const record = {
      receipt: { status: SUCCESS, exchangeRate: this.rateSetPb(), ...receipt },
      transactionHash: sha384(signedTransactionBytes),
      consensusTimestamp: timestampPb(consensusNs),
      transactionID: transactionId,
      transferList: { accountAmounts: [] },
    };
    const item: SimItem = {
      consensusNs,
      body: fullBody,
      signedTransactionBytes,
      record,
      recordBytes: types.TransactionRecord.encode(record).finish(),
      sidecars: [],
    };
    this.pending.push(item);
    return item;
  }

  /**
   * Moves the clock to at least `ns` (and past the last transaction): the consensus time of a transaction a node
   * accepted, which follows the wall clock rather than the generated load's draws.
   */
  claimConsensusTime(ns: bigint): bigint {
    const next = this.clockNs + 1_000n;
    this.clockNs = ns > next ? ns : next;
    return this.clockNs;
  }

  /** The body, signed bytes and id of a transaction the simulator makes up itself (placeholder signatures). */
  private generated(submission: Submission, consensusNs: bigint) {
    const node = this.random.int(0, this.nodeCount - 1);
    const payer = this.ledger.account(submission.payer);
    const validStartNs = consensusNs - BigInt(this.random.int(1_000_000_000, 8_000_000_000));
    const transactionId = submission.transactionId ?? {
      transactionValidStart: timestampPb(validStartNs),
      accountID: accountPb(payer.num),
    };
    const memo = submission.memo ?? '';
    const body: Record<string, unknown> = {
      transactionID: transactionId,
      nodeAccountID: accountPb(nodeAccount(node)),
      transactionFee: MAX_TRANSACTION_FEE,
      transactionValidDuration: { seconds: VALID_DURATION_SECONDS },
      ...(memo ? { memo: UTF8.encode(memo) } : {}),
      ...submission.body,
    };
    const types = hapi();
    const bodyBytes = types.TransactionBody.encode(body).finish();
    const signers =
      submission.transactionId && !submission.signed ? [] : [payer.key, ...(submission.extraSigners ?? [])];
    const sigPair = signers.flatMap((key) => (key ? leafKeys(key) : [])).map((key) => signaturePair(this.random, key));
    const signedTransactionBytes = types.SignedTransaction.encode({
      bodyBytes,
      ...(sigPair.length > 0 ? { sigMap: { sigPair } } : {}),
    }).finish();
    return { body, signedTransactionBytes, transactionId, memo, signatures: sigPair.length, node };
  }

  async submit(submission: Submission): Promise<SimItem> {
    const consensusNs = submission.consensusNs ?? this.advanceClock();
    const wire = submission.wire;
    const { body, signedTransactionBytes, transactionId, memo, signatures, node } = wire
      ? { ...wire, transactionId: wire.body.transactionID as Record<string, unknown>, node: wire.nodeId }
      : this.generated(submission, consensusNs);
    const outcome = await submission.execute({ consensusNs, transactionId });
    const price = submission.price;
    const fee =
      outcome.fee ??
      (price
        ? feeOf(price, this.ledger.exchangeRate, {
            signatures,
            bytes: submission.payloadBytes ?? memo.length,
          })
        : 0n);
    const hbar = outcome.transfers ?? new HbarTransfers();
    if (fee > 0n) {
      hbar.add(submission.payer, -fee);
      for (const [account, amount] of feeCredits(fee, nodeAccount(node))) hbar.add(account, amount);
    }
    if (submission.afterFee) {
      for (const [account, amount] of submission.afterFee(fee).amounts) hbar.add(account, amount);
    }
    const rewards = this.stakingRewards(hbar, consensusNs);
    this.ledger.applyHbar(hbar.netted());

    const status = outcome.status ?? SUCCESS;
    const tokenLists = outcome.tokens && !outcome.tokens.isEmpty ? outcome.tokens.toPb() : [];
    const record: Record<string, unknown> = {
      receipt: { status, exchangeRate: this.rateSetPb(), ...outcome.receipt },
      transactionHash: sha384(signedTransactionBytes),
      consensusTimestamp: timestampPb(consensusNs),
      transactionID: transactionId,
      ...(memo ? { memo } : {}),
      ...(fee > 0n ? { transactionFee: i64(fee) } : {}),
      transferList: { accountAmounts: hbar.toPb(outcome.approvals) },
      ...(tokenLists.length > 0 ? { tokenTransferLists: tokenLists } : {}),
      ...(rewards.length > 0 ? { paid_staking_rewards: rewards } : {}),
      ...outcome.record,
    };
    const item: SimItem = {
      consensusNs,
      body,
      signedTransactionBytes,
      record,
      recordBytes: hapi().TransactionRecord.encode(record).finish(),
      sidecars: outcome.sidecars ?? [],
    };
    this.pending.push(item);
    return item;
  }
}
