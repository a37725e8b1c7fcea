/**
 * The simulated network's consensus for transactions clients submit: what passed a node's precheck waits in one
 * queue, and the run loop hands it to consensus between the generated load's transactions, each at a consensus time
 * that follows the wall clock. Handling goes through the same Network.submit as the generated load (fees, record,
 * staking rewards, the ledger model), so the transaction lands in the next record file and block like any other,
 * and its receipt and record are answered from the receipt cache.
 */
import type { SimEvm } from '../evm/evm.ts';
import { accountPb, schedulePb } from '../ledger/ids.ts';
import type { Account, LedgerKey, Schedule, SimKey } from '../ledger/ledger.ts';
import { feeOf, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import { keyPb } from '../network/keys.ts';
import { type Network, type Outcome, type SimItem, SUCCESS } from '../network/network.ts';
import { HbarTransfers } from '../network/transfers.ts';
import { transactionIdKey } from './entity-ids.ts';
import { hollowCompletion } from './handlers/auto-create.ts';
import { HANDLERS, SCHEDULABLE } from './handlers/registry.ts';
import { ensure, Failed, type Handling, type NodeTx, type Pb, type Scheduler } from './handling.ts';
import { code } from './node-proto.ts';
import { type Accepted, precheck } from './precheck.ts';
import { ReceiptCache } from './receipts.ts';
import { Signatures } from './signatures.ts';

export type NodeLog = (fields: Record<string, unknown>) => void;

export class ConsensusNode implements Scheduler {
  readonly receipts = new ReceiptCache();
  private queue: Accepted[] = [];
  private readonly net: Network;
  private readonly evm: SimEvm;
  private readonly log: NodeLog;
  /** Called when a transaction joins the queue (the run loop's tick wakes for it). */
  onAccepted: (() => void) | undefined;

  constructor(net: Network, evm: SimEvm, log: NodeLog = () => {}) {
    this.net = net;
    this.evm = evm;
    this.log = log;
  }

  get ledger() {
    return this.net.ledger;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /**
   * A transaction submitted to node `nodeId`: its precheck code (OK: queued for consensus). `nowNs` is the node's
   * clock, the wall clock.
   */
  submit(bytes: Uint8Array, nodeId: number, nowNs: bigint): number {
    try {
      const accepted = precheck(bytes, { nodeId, accountNum: BigInt(nodeId + 3) }, this.ledger, this.receipts, nowNs);
      this.receipts.accept(accepted.key, accepted.validEndNs);
      this.queue.push(accepted);
      this.onAccepted?.();
      return code('OK');
    } catch (error) {
      if (error instanceof Failed) return error.status;
      throw error;
    }
  }

  /** A paid query's payment, checked by the query's precheck: it goes to consensus like any transaction. */
  acceptPayment(accepted: Accepted): void {
    this.receipts.accept(accepted.key, accepted.validEndNs);
    this.queue.push(accepted);
    this.onAccepted?.();
  }

  /** Hands every queued transaction to consensus, at `nowNs` or just after the last consensus time. */
  async handleQueued(nowNs: bigint): Promise<number> {
    const batch = this.queue;
    this.queue = [];
    for (const accepted of batch) await this.handle(accepted, this.net.claimConsensusTime(nowNs));
    this.receipts.prune(nowNs);
    return batch.length;
  }

  private async handle(accepted: Accepted, consensusNs: bigint): Promise<void> {
    const { payer, kind, data, signatures, body, price } = accepted;
    const ledger = this.ledger;
    const baseFee =
      price.kind !== undefined
        ? feeOf(price.kind, ledger.exchangeRate, {
            signatures: signatures.count,
            bytes: price.bytes ?? new TextEncoder().encode(accepted.memo).length,
          })
        : tinybarsOf(PRICE_TINYCENTS[price.base ?? 'contractCallBase'], ledger.exchangeRate);
    const tx: NodeTx = {
      body,
      kind,
      data,
      payer,
      signatures,
      net: this.net,
      evm: this.evm,
      fee: baseFee,
      scheduler: this,
    };
    const completions: { account: Account; key: SimKey }[] = [];
    const prepared = this.prepare(tx, completions, () => {
      const account = ledger.accounts.get(payer);
      ensure(account && !account.deleted, 'PAYER_ACCOUNT_NOT_FOUND');
      const key = hollowCompletion(account, signatures);
      ensure(account.key && (signatures.satisfies(account.key) || key), 'INVALID_PAYER_SIGNATURE');
      ensure(account.balance >= baseFee, 'INSUFFICIENT_PAYER_BALANCE');
      // Completed before the transaction runs, as the node completes it before dispatching: the key signs for it.
      if (key) {
        account.key = key;
        completions.push({ account, key });
      }
    });
    const item = await this.run(tx, prepared, {
      consensusNs,
      baseFee,
      wire: {
        body,
        signedTransactionBytes: accepted.signedTransactionBytes,
        signatures: signatures.count,
        nodeId: accepted.nodeId,
        memo: accepted.memo,
      },
    });
    const children = [...(prepared.handling?.children?.() ?? [])];
    // The completions precede the transaction and the children it already has, in the order they were made; the
    // children after the record take the nonces after all of those.
    const firstNonce = children.length + completions.length + 1;
    const following = (await prepared.handling?.follow?.(item, firstNonce)) ?? [];
    const completed: SimItem[] = [];
    for (const [i, { account, key }] of completions.entries())
      completed.push(await this.complete(account, key, payer, item, children.length + completions.length - i));
    children.unshift(...completed);
    children.push(...following);
    this.receipts.done(accepted.key, item, children);
    for (const child of children) this.receipts.done(transactionIdKey(child.body.transactionID), child);
    this.log({ msg: 'handled', transactionId: accepted.key, kind, status: statusOf(item) });
    if (prepared.handling && statusOf(item) === SUCCESS) await prepared.handling.after?.(item);
  }

  /**
   * The record of a hollow account's completion (the key was set before the transaction ran), as the node records
   * it: a CryptoUpdate child paid by the transaction's payer, `before` nanoseconds ahead of it (and its nonce).
   */
  private complete(account: Account, key: SimKey, payer: bigint, parent: SimItem, before: number): Promise<SimItem> {
    return this.net.submit({
      payer,
      transactionId: { ...(parent.body.transactionID as Pb), nonce: before },
      consensusNs: parent.consensusNs - BigInt(before),
      body: { cryptoUpdateAccount: { accountIDToUpdate: accountPb(account.num), key: keyPb(key) } },
      price: undefined,
      execute: () => ({}),
    });
  }

  /** The handler's plan, or the failure that stops it (checked before anything changes). */
  private prepare(
    tx: NodeTx,
    completions: { account: Account; key: SimKey }[],
    payerChecks: () => void,
  ): { handling?: Handling; failure?: Failed } {
    try {
      payerChecks();
      const handler = HANDLERS[tx.kind];
      ensure(handler, 'NOT_SUPPORTED');
      const handling = handler.handle(tx);
      const completed = this.completeRequiredHollows(tx, handling.requiredKeys);
      completions.push(...completed);
      const keys = handling.requiredKeys.map((key) => completed.find((c) => c.old === key)?.key ?? key);
      ensure(
        keys.every((key) => tx.signatures.satisfies(key)),
        'INVALID_SIGNATURE',
      );
      return { handling };
    } catch (error) {
      if (error instanceof Failed) return { failure: error };
      throw error;
    }
  }

  /**
   * Hollow accounts whose signature the transaction needs and whose ECDSA key signed it: the node completes each with
   * that key before dispatching. A handler names an account's key by the account's own key object, which tells one
   * hollow account's empty key list from another's.
   */
  private completeRequiredHollows(
    tx: NodeTx,
    required: readonly LedgerKey[],
  ): { account: Account; key: SimKey; old: LedgerKey }[] {
    const out: { account: Account; key: SimKey; old: LedgerKey }[] = [];
    for (const named of tx.signatures.namedKeys()) {
      if (!named.evmAddress) continue;
      const num = this.ledger.entityOfAddress(named.evmAddress);
      const account = num === undefined ? undefined : this.ledger.accounts.get(num);
      const old = account?.key;
      if (!account || !old || !required.includes(old) || out.some((c) => c.account === account)) continue;
      const key = hollowCompletion(account, tx.signatures);
      if (!key) continue;
      account.key = key;
      out.push({ account, key, old });
    }
    return out;
  }

  /** Puts the transaction through the network: its outcome, or its failure with only the fee charged. */
  private async run(
    tx: NodeTx,
    prepared: { handling?: Handling; failure?: Failed },
    options: {
      consensusNs: bigint;
      baseFee: bigint;
      wire?: Parameters<Network['submit']>[0]['wire'];
      transactionId?: Pb;
      scheduleRef?: bigint;
      scheduledBody?: Pb;
    },
  ): Promise<SimItem> {
    const { handling } = prepared;
    let failure = prepared.failure;
    let succeeded = false;
    const payerBalance = this.ledger.accounts.get(tx.payer)?.balance ?? 0n;
    const price = HANDLERS[tx.kind]?.price(tx.data);
    const scheduleRecord = options.scheduleRef !== undefined ? { scheduleRef: schedulePb(options.scheduleRef) } : {};
    return this.net.submit({
      payer: tx.payer,
      consensusNs: options.consensusNs,
      ...(options.wire ? { wire: options.wire } : {}),
      ...(options.transactionId ? { transactionId: options.transactionId } : {}),
      body: options.scheduledBody ?? {},
      price: price?.kind,
      ...(price?.bytes !== undefined ? { payloadBytes: price.bytes } : {}),
      execute: async (ctx): Promise<Outcome> => {
        if (!failure && handling) {
          try {
            const outcome = await handling.execute(ctx);
            succeeded = (outcome.status ?? SUCCESS) === SUCCESS;
            return { ...outcome, record: { ...outcome.record, ...scheduleRecord } };
          } catch (error) {
            if (!(error instanceof Failed)) {
              this.log({ msg: 'handling failed', kind: tx.kind, error: String(error) });
              failure = new Failed('FAIL_INVALID');
            } else failure = error;
          }
        }
        const fee = options.baseFee < payerBalance ? options.baseFee : payerBalance;
        return {
          status: failure?.status ?? code('FAIL_INVALID'),
          fee,
          record: scheduleRecord,
          ...(failure?.receipt ? { receipt: failure.receipt } : {}),
        };
      },
      ...(handling?.afterFee
        ? { afterFee: (fee: bigint) => (succeeded && handling.afterFee ? handling.afterFee(fee) : new HbarTransfers()) }
        : {}),
    });
  }

  scheduledKind(body: Pb): string | undefined {
    return [...SCHEDULABLE].find((kind) => body[kind] !== undefined && body[kind] !== null);
  }

  pureCheck(kind: string, data: Pb, body: Pb): void {
    HANDLERS[kind]?.pure?.(data, body);
  }

  async executeIfReady(schedule: Schedule, afterNs: bigint): Promise<void> {
    const submitted = schedule.submitted;
    if (!submitted || schedule.executed || submitted.deletedNs || submitted.waitForExpiry) return;
    const scheduled = (submitted.body.scheduledTransactionBody ?? {}) as Pb;
    const kind = this.scheduledKind(scheduled);
    if (!kind) return;
    const signatures = new Signatures(new Uint8Array(), [], new Set(submitted.signatories));
    const payer = this.ledger.accounts.get(schedule.payer);
    if (!payer?.key || !signatures.satisfies(payer.key)) return;
    const data = (scheduled[kind] ?? {}) as Pb;
    const consensusNs = afterNs + 1n;
    const price = HANDLERS[kind]?.price(data);
    const baseFee = price?.kind
      ? feeOf(price.kind, this.ledger.exchangeRate, { signatures: 0, bytes: price.bytes ?? 0 })
      : 0n;
    const tx: NodeTx = {
      // The limits a scheduled submission's payer set on custom fees (HIP-991) travel with the scheduled body.
      body: {
        transactionID: schedule.scheduledId,
        [kind]: data,
        ...(scheduled.max_custom_fees ? { max_custom_fees: scheduled.max_custom_fees } : {}),
      },
      kind,
      data,
      payer: schedule.payer,
      signatures,
      net: this.net,
      evm: this.evm,
      fee: baseFee,
      scheduler: this,
    };
    const prepared = this.prepare(tx, [], () => {});
    // Not every key has signed yet: the schedule waits for more signatures.
    if (prepared.failure?.statusName === 'INVALID_SIGNATURE') return;
    schedule.executed = true;
    submitted.executedNs = consensusNs;
    const item = await this.run(tx, prepared, {
      consensusNs,
      baseFee,
      transactionId: schedule.scheduledId,
      scheduleRef: schedule.num,
      scheduledBody: { [kind]: data, ...(scheduled.memo ? { memo: scheduled.memo } : {}) },
    });
    this.receipts.done(transactionIdKey(schedule.scheduledId), item);
    if (prepared.handling && statusOf(item) === SUCCESS) await prepared.handling.after?.(item);
  }
}

export function statusOf(item: SimItem): number {
  return Number((item.record.receipt as Pb | undefined)?.status ?? SUCCESS);
}
