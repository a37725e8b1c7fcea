/**
 * What a transaction submitted to a node becomes at consensus: each kind of body has a handler that says what it
 * costs (its fee schedule entry, the bytes priced, the gas it may burn), checks what needs no state (the node's
 * pure checks, failing at precheck), and at consensus names the keys that must have signed and runs the change on
 * the ledger model. A handler validates everything before it changes anything, so a failure leaves the model as
 * it was and only the fee is charged.
 */
import type { SimEvm } from '../evm/evm.ts';
import type { LedgerKey, Schedule } from '../ledger/ledger.ts';
import type { Priced } from '../network/fees.ts';
import type { ExecuteContext, Network, Outcome, SimItem } from '../network/network.ts';
import type { HbarTransfers } from '../network/transfers.ts';
import { code } from './node-proto.ts';
import type { Signatures } from './signatures.ts';

export type Pb = Record<string, unknown>;

/** A transaction's failure with one of the node's response codes. */
export class Failed extends Error {
  readonly status: number;
  readonly statusName: string;
  /** Receipt fields the failure still reports (an identical schedule's id). */
  readonly receipt: Record<string, unknown> | undefined;
  constructor(statusName: string, receipt?: Record<string, unknown>) {
    super(statusName);
    this.statusName = statusName;
    this.status = code(statusName);
    this.receipt = receipt;
  }
}

/** Throws `Failed(status)` unless `condition` holds. */
export function ensure(condition: unknown, status: string): asserts condition {
  if (!condition) throw new Failed(status);
}

export interface Price {
  /** The fee schedule entry; undefined for a transaction that pays for gas instead (`gas` then says how much). */
  readonly kind: Priced | undefined;
  /** Bytes priced beyond the first hundred (a message, file contents). */
  readonly bytes?: number;
  /** The most gas the transaction may be charged for, at the network's gas price. */
  readonly gas?: bigint;
  /** With `gas`: the base price charged besides the gas. */
  readonly base?: Priced;
}

/** The transaction in hand at consensus. */
export interface NodeTx {
  readonly body: Pb;
  /** The data field's name (`cryptoTransfer`, …) and value. */
  readonly kind: string;
  readonly data: Pb;
  readonly payer: bigint;
  readonly signatures: Signatures;
  readonly net: Network;
  readonly evm: SimEvm;
  /** The fee the network charges the payer (before gas), for handlers that check what the payer has left. */
  readonly fee: bigint;
  readonly scheduler: Scheduler;
}

/** What the schedule handlers need of the node: the handlers of the transactions a schedule may hold, and execution. */
export interface Scheduler {
  /** The data field of a schedulable body that the node can run, or undefined. */
  scheduledKind(body: Pb): string | undefined;
  /** The pure checks of that kind of transaction. */
  pureCheck(kind: string, data: Pb, body: Pb): void;
  /** Runs the schedule one nanosecond after `afterNs` when its signatories satisfy every key it needs. */
  executeIfReady(schedule: Schedule, afterNs: bigint): Promise<void>;
}

export interface Handling {
  /** Keys that must have signed (the payer's is checked at precheck and again here). */
  readonly requiredKeys: readonly LedgerKey[];
  readonly execute: (ctx: ExecuteContext) => Outcome | Promise<Outcome>;
  /** Hbar that moves once the fee is known (a deleted account's sweep); only when the transaction succeeds. */
  readonly afterFee?: (fee: bigint) => HbarTransfers;
  /** Work after the transaction's own record (a schedule's execution one nanosecond later). */
  readonly after?: (item: SimItem) => Promise<void>;
  /** The child records `execute` wrote (accounts a transfer created), for receipt and record queries. */
  readonly children?: () => readonly SimItem[];
  /**
   * Child records written after the transaction's own, whatever its status (a contract's system calls), their
   * nonces from `firstNonce` on.
   */
  readonly follow?: (item: SimItem, firstNonce: number) => Promise<readonly SimItem[]>;
}

export interface TxHandler {
  readonly price: (data: Pb) => Price;
  /** The node's checks that need no state: a failure is the precheck's answer. */
  readonly pure?: (data: Pb, body: Pb) => void;
  /** Reads the ledger at consensus; throws `Failed` when the transaction cannot go on. */
  readonly handle: (tx: NodeTx) => Handling;
}

export const UTF8 = new TextEncoder();
export const textOf = (value: unknown): string =>
  value instanceof Uint8Array ? new TextDecoder().decode(value) : typeof value === 'string' ? value : '';

export const bigOf = (value: unknown): bigint => BigInt(String(value ?? 0));

/** The memo rule of every entity memo: at most 100 UTF-8 bytes, no zero byte. */
export function checkMemo(memo: string, tooLong = 'MEMO_TOO_LONG'): void {
  const bytes = UTF8.encode(memo);
  ensure(bytes.length <= 100, tooLong);
  ensure(!bytes.includes(0), 'INVALID_ZERO_BYTE_IN_STRING');
}

/** A wrapped value (`google.protobuf.StringValue` etc.), or undefined when the field is absent. */
export function wrapped<T>(value: unknown): T | undefined {
  return value && typeof value === 'object' && 'value' in value
    ? ((value as { value: T }).value ?? undefined)
    : undefined;
}

export const DEFAULT_AUTO_RENEW_SECONDS = 7_776_000n;
