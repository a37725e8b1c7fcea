/**
 * The consensus node's precheck of a submitted transaction, in its order (IngestChecker): size and parse (6 KiB, or
 * 130 KiB for a privileged payer, HIP-1300), the body's
 * syntax (transaction id, memo, fee, a kind this node runs), the node account, the valid-start window, duplicates,
 * the kind's pure checks, the payer account, the payer's signature, and solvency (the fee offered covers the fee,
 * the payer's balance covers the fee). A failure throws `Failed` with the node's response code.
 */

import type { Ledger } from '../ledger/ledger.ts';
import { feeOf, GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../network/fees.ts';
import { accountNumOf, nsOf, numOf, transactionIdKey } from './entity-ids.ts';
import { hollowCompletion } from './handlers/auto-create.ts';
import { HANDLERS } from './handlers/registry.ts';
import { bigOf, checkMemo, ensure, Failed, type Pb, type Price, textOf } from './handling.ts';
import { DECODE_OPTIONS, nodeTypes } from './node-proto.ts';
import type { ReceiptCache } from './receipts.ts';
import { Signatures, signaturePairs } from './signatures.ts';

/** The node's `transactionMaxBytes`. */
export const MAX_TRANSACTION_BYTES = 6_144;
/** `jumboTransactions.maxTxnSize`: what the node reads at all, and what its privileged payers may send (HIP-1300). */
export const MAX_PRIVILEGED_TRANSACTION_BYTES = 133_120;
/** The privileged payers: the treasury 0.0.2 and the system admin 0.0.50 (`accounts.treasury`, `accounts.systemAdmin`). */
const PRIVILEGED_PAYERS = new Set([2n, 50n]);
const MIN_VALID_SECONDS = 15n;
const MAX_VALID_SECONDS = 180n;
/** A transaction must stay valid this long past its arrival (`minValidityBufferSecs`). */
const VALIDITY_BUFFER_NS = 10_000_000_000n;

/** A transaction that passed precheck, ready for consensus. */
export interface Accepted {
  readonly key: string;
  readonly body: Pb;
  readonly kind: string;
  readonly data: Pb;
  readonly payer: bigint;
  readonly signatures: Signatures;
  readonly signedTransactionBytes: Uint8Array;
  readonly nodeId: number;
  readonly memo: string;
  readonly validEndNs: bigint;
  readonly price: Price;
}

/** Decodes a Transaction's bytes as the node does; throws `Failed` for what cannot be read. */
export function parseTransaction(bytes: Uint8Array): Omit<Accepted, 'payer' | 'nodeId' | 'validEndNs' | 'price'> {
  ensure(bytes.length <= MAX_PRIVILEGED_TRANSACTION_BYTES, 'TRANSACTION_OVERSIZE');
  const types = nodeTypes();
  let transaction: Pb;
  try {
    transaction = types.Transaction.toObject(types.Transaction.decode(bytes), DECODE_OPTIONS);
  } catch {
    throw new Failed('INVALID_TRANSACTION');
  }
  const signed = transaction.signedTransactionBytes;
  ensure(signed instanceof Uint8Array && signed.length > 0, 'INVALID_TRANSACTION');
  ensure(
    !transaction.body && !transaction.bodyBytes && !transaction.sigMap && !transaction.sigs,
    'INVALID_TRANSACTION',
  );
  let bodyBytes: Uint8Array;
  let sigMap: unknown;
  try {
    const decoded = types.SignedTransaction.toObject(types.SignedTransaction.decode(signed), DECODE_OPTIONS);
    bodyBytes = decoded.bodyBytes instanceof Uint8Array ? decoded.bodyBytes : new Uint8Array();
    sigMap = decoded.sigMap;
  } catch {
    throw new Failed('INVALID_TRANSACTION');
  }
  let body: Pb;
  try {
    body = types.TransactionBody.toObject(types.TransactionBody.decode(bodyBytes), DECODE_OPTIONS);
  } catch {
    throw new Failed('INVALID_TRANSACTION_BODY');
  }
  const privileged = PRIVILEGED_PAYERS.has(numOf((body.transactionID as Pb | undefined)?.accountID, 'accountNum'));
  ensure(bytes.length <= MAX_TRANSACTION_BYTES || privileged, 'TRANSACTION_OVERSIZE');
  const kind = Object.keys(HANDLERS).find((name) => body[name] !== undefined && body[name] !== null);
  const known = types.TransactionBody.oneofs.data?.oneof.some((name) => body[name] !== undefined) ?? false;
  ensure(known, 'INVALID_TRANSACTION_BODY');
  ensure(kind, 'NOT_SUPPORTED');
  return {
    key: transactionIdKey(body.transactionID),
    body,
    kind,
    data: (body[kind] ?? {}) as Pb,
    signatures: new Signatures(bodyBytes, signaturePairs(sigMap)),
    signedTransactionBytes: new Uint8Array(signed),
    memo: textOf(body.memo),
  };
}

/** The fee of a priced transaction, or for one that pays gas the most it may cost. */
export function feeOfPrice(price: Price, ledger: Ledger, signatures: number, memoBytes: number): bigint {
  if (price.kind === undefined) {
    const base = PRICE_TINYCENTS[price.base ?? 'contractCallBase'];
    return (price.gas ?? 0n) * GAS_PRICE_TINYBARS + tinybarsOf(base, ledger.exchangeRate);
  }
  return feeOf(price.kind, ledger.exchangeRate, { signatures, bytes: price.bytes ?? memoBytes });
}

export function precheck(
  bytes: Uint8Array,
  node: { readonly nodeId: number; readonly accountNum: bigint },
  ledger: Ledger,
  receipts: ReceiptCache,
  nowNs: bigint,
): Accepted {
  const parsed = parseTransaction(bytes);
  const { body, kind, data, signatures } = parsed;
  const id = (body.transactionID ?? undefined) as Pb | undefined;
  ensure(id?.transactionValidStart, 'INVALID_TRANSACTION_ID');
  ensure(id.accountID, 'PAYER_ACCOUNT_NOT_FOUND');
  ensure(!id.scheduled && !id.nonce, 'TRANSACTION_ID_FIELD_NOT_ALLOWED');
  checkMemo(parsed.memo);
  ensure(bigOf(body.transactionFee) >= 0n, 'INSUFFICIENT_TX_FEE');
  ensure(accountNumOf(ledger, body.nodeAccountID) === node.accountNum, 'INVALID_NODE_ACCOUNT');

  const validStart = nsOf(id.transactionValidStart);
  const duration = bigOf((body.transactionValidDuration as Pb | undefined)?.seconds);
  ensure(duration >= MIN_VALID_SECONDS && duration <= MAX_VALID_SECONDS, 'INVALID_TRANSACTION_DURATION');
  const validEndNs = validStart + duration * 1_000_000_000n;
  ensure(validEndNs - VALIDITY_BUFFER_NS >= nowNs, 'TRANSACTION_EXPIRED');
  ensure(validStart <= nowNs, 'INVALID_TRANSACTION_START');

  ensure(!receipts.isDuplicate(parsed.key, nowNs), 'DUPLICATE_TRANSACTION');
  const handler = HANDLERS[kind];
  ensure(handler, 'NOT_SUPPORTED');
  handler.pure?.(data, body);

  const payerNum = accountNumOf(ledger, id.accountID);
  const payer = payerNum > 0n ? ledger.accounts.get(payerNum) : undefined;
  ensure(payer, 'PAYER_ACCOUNT_NOT_FOUND');
  ensure(!payer.deleted, 'PAYER_ACCOUNT_DELETED');
  ensure(payer.key, 'UNAUTHORIZED');
  // A hollow payer signs with the ECDSA key behind its EVM address, which completes the account at consensus.
  ensure(signatures.satisfies(payer.key) || hollowCompletion(payer, signatures), 'INVALID_SIGNATURE');

  const price = handler.price(data);
  const fee = feeOfPrice(price, ledger, signatures.count, new TextEncoder().encode(parsed.memo).length);
  ensure(bigOf(body.transactionFee) >= fee, 'INSUFFICIENT_TX_FEE');
  ensure(payer.balance >= fee, 'INSUFFICIENT_PAYER_BALANCE');
  return { ...parsed, payer: payer.num, nodeId: node.nodeId, validEndNs, price };
}
