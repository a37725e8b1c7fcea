/**
 * `/construction/submit`'s send (construction_service.go `ConstructionSubmit`, the Go SDK's `Execute` with one
 * attempt): the signed transaction goes to the node it names, over gRPC (CryptoService `cryptoTransfer` or
 * `createAccount`); anything but the node's `OK` is `Transaction submission failed` (118) with the SDK's error as
 * its `reason`: `exceptional precheck status INSUFFICIENT_PAYER_BALANCE received for transaction 0.0.2@…`, or for a
 * node it cannot reach `retry 1/1: rpc error: code = Unavailable desc = connection error: …`.
 */
import { knownResponseCodeName } from '../../../db/codes/response-codes.ts';
import { type SocketOpener, type UnaryResult, unaryCall } from '../../grpc-client/unary-call.ts';
import { RosettaError } from '../errors.ts';
import { sdkAccountText } from './accounts.ts';
import { CRYPTO_TRANSFER, TRANSACTION_RESPONSE } from './hapi/messages.ts';
import { signedTransactionBytes, transactionBytes } from './hapi/transaction-build.ts';
import type { SdkTransaction, SdkTransactionId } from './hapi/transaction-bytes.ts';
import { decodeMessage } from './hapi/wire.ts';
import type { NetworkNode } from './network-nodes.ts';

/** The Go SDK client's gRPC deadline for one request. */
const GRPC_DEADLINE_MS = 10_000;

const OK = 0;
const INVALID_NODE_ACCOUNT = 3;
/** BUSY, PLATFORM_NOT_ACTIVE, PLATFORM_TRANSACTION_NOT_CREATED: the SDK would try again, but has one attempt. */
const RETRIED = new Set([12, 67, 69]);

/** grpc-go codes the SDK retries on (`_ExecutableDefaultRetryHandler`), then runs out of its one attempt. */
const RETRIED_CODES = new Set(['ResourceExhausted', 'Unavailable', 'DeadlineExceeded']);
const RST_STREAM = /\brst[^0-9a-zA-Z]stream\b/i;

/** `TransactionID.String()`: `0.0.2@1700000000.000000001`, `?scheduled`, `/nonce`. */
export function transactionIdText(id: SdkTransactionId): string {
  const seconds = id.validStart / 1_000_000_000n - (id.validStart % 1_000_000_000n < 0n ? 1n : 0n);
  const nanos = id.validStart - seconds * 1_000_000_000n;
  return `${sdkAccountText(id.payer)}@${seconds}.${nanos.toString().padStart(9, '0')}${id.scheduled ? '?scheduled' : ''}${id.nonce !== 0 ? `/${id.nonce}` : ''}`;
}

const submissionFailed = (reason: string) => RosettaError.of('TransactionSubmissionFailed', { reason });

/** The SDK's error for a node's precheck code other than OK. */
function precheckReason(code: number, id: SdkTransactionId): string {
  const status = knownResponseCodeName(code) ?? `${code}`;
  const error = `exceptional precheck status ${status} received for transaction ${transactionIdText(id)}`;
  return RETRIED.has(code) || code === INVALID_NODE_ACCOUNT ? `retry 1/1: ${error}` : error;
}

/** The SDK's error for a failed gRPC call. */
function callReason(result: Extract<UnaryResult, { ok: false }>): string {
  const retried = RETRIED_CODES.has(result.code) || (result.code === 'Internal' && RST_STREAM.test(result.desc));
  return `retry ${retried ? 1 : 0}/1: rpc error: code = ${result.code} desc = ${result.desc}`;
}

/**
 * The endpoint a node is called on: one off the ports the SDK speaks TLS to (50212, 443: a Worker's socket cannot
 * check a node's certificate) when the node has one, else its first; never a port 0 (an address book entry with a
 * deprecated IP and no port). The call is plaintext.
 */
function endpointOf(node: NetworkNode): { host: string; port: number } | undefined {
  const parsed = node.endpoints
    .map((endpoint) => {
      const at = endpoint.lastIndexOf(':');
      return { host: endpoint.slice(0, at), port: Number(endpoint.slice(at + 1)) };
    })
    .filter((e) => e.host !== '' && Number.isInteger(e.port) && e.port > 0 && e.port < 65_536);
  return parsed.find((e) => e.port !== 50212 && e.port !== 443) ?? parsed[0];
}

/** Sends `transaction` (read from the request, with a signed transaction, a payer and a node) to its node. */
export async function submit(
  transaction: SdkTransaction,
  nodes: readonly NetworkNode[],
  open: SocketOpener,
): Promise<void> {
  const id = transaction.transactionIds[0] as SdkTransactionId;
  const nodeAccount = transaction.nodeAccounts[0];
  const node = nodes.find(
    (n) =>
      nodeAccount !== undefined &&
      nodeAccount.alias === undefined &&
      n.account.shard === nodeAccount.shard &&
      n.account.realm === nodeAccount.realm &&
      n.account.num === nodeAccount.num,
  );
  const endpoint = node ? endpointOf(node) : undefined;
  if (!endpoint) {
    const named = nodeAccount ? sdkAccountText(nodeAccount) : '0.0.0';
    throw submissionFailed(`Invalid node AccountID was set for transaction: ${named}`);
  }
  const method = transaction.kind === CRYPTO_TRANSFER ? 'cryptoTransfer' : 'createAccount';
  const result = await unaryCall({
    open,
    host: endpoint.host,
    port: endpoint.port,
    path: `/proto.CryptoService/${method}`,
    message: transactionBytes(signedTransactionBytes(transaction.signed[0] as SdkTransaction['signed'][number])),
    deadlineMs: GRPC_DEADLINE_MS,
  });
  if (!result.ok) throw submissionFailed(callReason(result));
  let code: number;
  try {
    code = (decodeMessage(result.message, TRANSACTION_RESPONSE).nodeTransactionPrecheckCode as number | undefined) ?? 0;
  } catch {
    throw submissionFailed(
      'retry 0/1: rpc error: code = Internal desc = grpc: failed to unmarshal the received message',
    );
  }
  if (code !== OK) throw submissionFailed(precheckReason(code, id));
}
