/**
 * A node's answers to queries (QueryWorkflow): the query's kind, its cost, the payment a paid query carries (a
 * CryptoTransfer to this node of at least the cost, checked as any submitted transaction is and then sent to
 * consensus), and the answer from the ledger model or the receipt cache. A COST_ANSWER query gets the cost alone
 * and pays nothing; receipts and balances are free.
 */
import type { SimEvm } from '../../evm/evm.ts';
import { htsSystemContract } from '../../evm/hts-system.ts';
import { functionResult } from '../../evm/records.ts';
import { accountPb, contractPb, i64, longZeroAddress, tokenPb } from '../../ledger/ids.ts';
import { GAS_PRICE_TINYBARS, PRICE_TINYCENTS, tinybarsOf } from '../../network/fees.ts';
import type { ConsensusNode } from '../consensus.ts';
import { accountNumOf, contractNumOf, numOf, transactionIdKey } from '../entity-ids.ts';
import { liveAccount } from '../handlers/lookups.ts';
import { bigOf, ensure, Failed, type Pb } from '../handling.ts';
import { code, DECODE_OPTIONS, nodeTypes } from '../node-proto.ts';
import { precheck } from '../precheck.ts';
import {
  accountInfo,
  contractBytecode,
  contractInfo,
  fileContents,
  fileInfo,
  nftInfo,
  scheduleInfo,
  tokenInfo,
  topicInfo,
} from './entity-info.ts';

const ANSWER_ONLY = 0;
const COST_ANSWER = 2;

/** The response field of each query kind where it is not the query's own name. */
const RESPONSE_FIELD: Readonly<Record<string, string>> = { contractGetBytecode: 'contractGetBytecodeResponse' };

/** The version this network reports (NetworkGetVersionInfo): the HAPI of the `@hiero-ledger/proto` it loads. */
const VERSION = { major: 0, minor: 66, patch: 0 };

/** How long a receipt query for a pending transaction waits for its consensus before it answers UNKNOWN. */
const RECEIPT_HOLD_MS = 500;

const FREE = new Set(['cryptogetAccountBalance', 'transactionGetReceipt']);

interface QueryContext {
  readonly consensus: ConsensusNode;
  readonly evm: SimEvm;
  readonly nodeId: number;
  readonly nowNs: bigint;
}

export async function answerQuery(bytes: Uint8Array, context: QueryContext): Promise<Uint8Array> {
  const types = nodeTypes();
  let query: Pb;
  try {
    query = types.Query.toObject(types.Query.decode(bytes), DECODE_OPTIONS);
  } catch {
    return encodeResponse('transactionGetReceipt', { header: header(code('INVALID_QUERY_HEADER'), ANSWER_ONLY, 0n) });
  }
  const kind = types.Query.oneofs.query?.oneof.find((name) => query[name] !== undefined && query[name] !== null);
  if (!kind) return encodeResponse('transactionGetReceipt', { header: header(code('NOT_SUPPORTED'), ANSWER_ONLY, 0n) });
  const field = RESPONSE_FIELD[kind] ?? kind;
  const body = (query[kind] ?? {}) as Pb;
  const queryHeader = (body.header ?? {}) as Pb;
  const responseType = Number(queryHeader.responseType ?? ANSWER_ONLY);
  try {
    ensure(responseType === ANSWER_ONLY || responseType === COST_ANSWER, 'NOT_SUPPORTED');
    const cost = FREE.has(kind) ? 0n : costOf(kind, body, context);
    if (responseType === COST_ANSWER) {
      validate(kind, body, context);
      return encodeResponse(field, { header: header(code('OK'), responseType, cost) });
    }
    const payment = cost > 0n ? checkPayment(queryHeader.payment, cost, context) : undefined;
    const answer = await answerOf(kind, body, context);
    if (payment) context.consensus.acceptPayment(payment);
    return encodeResponse(field, { header: header(answer.status ?? code('OK'), responseType, cost), ...answer.fields });
  } catch (error) {
    if (!(error instanceof Failed)) throw error;
    return encodeResponse(field, { header: header(error.status, responseType, 0n) });
  }
}

function header(status: number, responseType: number, cost: bigint): Pb {
  return { nodeTransactionPrecheckCode: status, responseType, ...(cost > 0n ? { cost: i64(cost) } : {}) };
}

function encodeResponse(field: string, value: Pb): Uint8Array {
  const type = nodeTypes().Response;
  return type.encode(type.fromObject({ [field]: value })).finish();
}

function costOf(kind: string, body: Pb, { consensus }: QueryContext): bigint {
  const rate = consensus.ledger.exchangeRate;
  const base = tinybarsOf(PRICE_TINYCENTS.query, rate);
  if (kind === 'contractCallLocal') return bigOf(body.gas) * GAS_PRICE_TINYBARS + base;
  return base;
}

/** The payment of a paid query: a valid CryptoTransfer from its payer that gives this node at least `cost`. */
function checkPayment(payment: unknown, cost: bigint, context: QueryContext) {
  ensure(payment && typeof payment === 'object', 'INSUFFICIENT_TX_FEE');
  const type = nodeTypes().Transaction;
  const bytes = type.encode(type.fromObject(payment as Pb)).finish();
  const { consensus, nodeId, nowNs } = context;
  const accepted = precheck(
    bytes,
    { nodeId, accountNum: BigInt(nodeId + 3) },
    consensus.ledger,
    consensus.receipts,
    nowNs,
  );
  ensure(accepted.kind === 'cryptoTransfer', 'INSUFFICIENT_TX_FEE');
  const amounts = (((accepted.data.transfers ?? {}) as Pb).accountAmounts ?? []) as Pb[];
  const toNode = amounts
    .filter((entry) => accountNumOf(consensus.ledger, entry.accountID) === BigInt(nodeId + 3))
    .reduce((sum, entry) => sum + bigOf(entry.amount), 0n);
  ensure(toNode >= cost, 'INSUFFICIENT_TX_FEE');
  const payer = consensus.ledger.account(accepted.payer);
  ensure(payer.balance >= toNode, 'INSUFFICIENT_PAYER_BALANCE');
  return accepted;
}

/** What a COST_ANSWER still checks: the entity the query names exists (the node's `validate` step). */
function validate(kind: string, body: Pb, context: QueryContext): void {
  const ledger = context.consensus.ledger;
  if (kind === 'cryptoGetInfo') accountInfo(ledger, body.accountID);
  else if (kind === 'cryptoGetAccountRecords') liveAccount(ledger, body.accountID);
  else if (kind === 'tokenGetInfo') tokenInfo(ledger, body.token);
  else if (kind === 'consensusGetTopicInfo') topicInfo(ledger, body.topicID);
  else if (kind === 'fileGetInfo' || kind === 'fileGetContents') fileInfo(ledger, body.fileID);
  else if (kind === 'contractGetInfo' || kind === 'contractCallLocal') contractInfo(ledger, body.contractID);
  else if (kind === 'scheduleGetInfo') scheduleInfo(ledger, body.scheduleID);
}

async function answerOf(kind: string, body: Pb, context: QueryContext): Promise<{ status?: number; fields: Pb }> {
  const ledger = context.consensus.ledger;
  switch (kind) {
    case 'transactionGetReceipt':
      await context.consensus.receipts.settled(transactionIdKey(body.transactionID), RECEIPT_HOLD_MS);
      return receiptAnswer(body, context);
    case 'transactionGetRecord': {
      const key = transactionIdKey(body.transactionID);
      const found = context.consensus.receipts.lookup(key);
      ensure(found && found !== 'pending', 'RECORD_NOT_FOUND');
      const children = body.include_child_records ? context.consensus.receipts.children(key) : [];
      return {
        fields: {
          transactionRecord: found.record,
          ...(children.length > 0 ? { child_transaction_records: children.map((child) => child.record) } : {}),
        },
      };
    }
    case 'cryptogetAccountBalance':
      return { fields: balanceAnswer(body, context) };
    case 'cryptoGetInfo':
      return { fields: { accountInfo: accountInfo(ledger, body.accountID) } };
    case 'cryptoGetAccountRecords': {
      // The records of the last three minutes that the account paid for, from the node's record cache.
      const { num } = liveAccount(ledger, body.accountID);
      const records = context.consensus.receipts.recordsPaidBy(num).map((item) => item.record);
      return { fields: { accountID: body.accountID, records } };
    }
    case 'tokenGetInfo':
      return { fields: { tokenInfo: tokenInfo(ledger, body.token) } };
    case 'tokenGetNftInfo':
      return { fields: { nft: nftInfo(ledger, body.nftID) } };
    case 'consensusGetTopicInfo':
      return { fields: { topicID: body.topicID, topicInfo: topicInfo(ledger, body.topicID) } };
    case 'fileGetContents':
      return { fields: { fileContents: fileContents(ledger, body.fileID) } };
    case 'fileGetInfo':
      return { fields: { fileInfo: fileInfo(ledger, body.fileID) } };
    case 'contractGetInfo':
      return { fields: { contractInfo: contractInfo(ledger, body.contractID) } };
    case 'contractGetBytecode':
      return { fields: { bytecode: contractBytecode(ledger, body.contractID) } };
    case 'contractCallLocal':
      return callLocal(body, context);
    case 'scheduleGetInfo':
      return { fields: { scheduleInfo: scheduleInfo(ledger, body.scheduleID) } };
    case 'networkGetVersionInfo':
      return { fields: { hapiProtoVersion: VERSION, hederaServicesVersion: VERSION } };
    default:
      throw new Failed('NOT_SUPPORTED');
  }
}

function receiptAnswer(body: Pb, { consensus }: QueryContext): { fields: Pb } {
  const key = transactionIdKey(body.transactionID);
  const found = consensus.receipts.lookup(key);
  ensure(found, 'RECEIPT_NOT_FOUND');
  if (found === 'pending') return { fields: { receipt: { status: code('UNKNOWN') } } };
  const children = body.include_child_receipts ? consensus.receipts.children(key) : [];
  return {
    fields: {
      receipt: found.record.receipt,
      ...(children.length > 0 ? { child_transaction_receipts: children.map((child) => child.record.receipt) } : {}),
    },
  };
}

function balanceAnswer(body: Pb, { consensus }: QueryContext): Pb {
  const ledger = consensus.ledger;
  if (body.contractID) {
    const contract = ledger.contracts.get(contractNumOf(ledger, body.contractID));
    ensure(contract && !contract.settings?.deleted, 'INVALID_CONTRACT_ID');
    return { accountID: accountPb(contract.num), balance: i64(contract.balance) };
  }
  const num = accountNumOf(ledger, body.accountID);
  const account = num > 0n ? ledger.accounts.get(num) : undefined;
  ensure(account, 'INVALID_ACCOUNT_ID');
  ensure(!account.deleted, 'ACCOUNT_DELETED');
  const tokenBalances = [...account.tokens].map((token) => ({
    tokenId: tokenPb(token),
    balance: i64(ledger.tokenBalance(num, token)),
    decimals: ledger.tokens.get(token)?.decimals ?? 0,
  }));
  return { accountID: accountPb(num), balance: i64(account.balance), tokenBalances };
}

async function callLocal(body: Pb, { consensus, evm }: QueryContext): Promise<{ status?: number; fields: Pb }> {
  const ledger = consensus.ledger;
  const num = contractNumOf(ledger, body.contractID);
  const contract = ledger.contracts.get(num);
  ensure(contract && !contract.settings?.deleted, 'INVALID_CONTRACT_ID');
  const payment = ((body.header as Pb | undefined)?.payment ?? {}) as Pb;
  const sender = body.sender_id ? accountNumOf(ledger, body.sender_id) : paymentPayer(payment);
  const data =
    body.functionParameters instanceof Uint8Array ? new Uint8Array(body.functionParameters) : new Uint8Array();
  const gas = bigOf(body.gas);
  ensure(gas > 0n, 'INSUFFICIENT_GAS');
  // The system contract answers as it would in a transaction; its changes to the ledger are undone with the EVM's.
  const system = htsSystemContract(ledger);
  evm.systemContract = system;
  const outcome = await evm
    .callLocal({
      sender: sender > 0n ? ledger.canonicalAddress(sender) : longZeroAddress(2n),
      contract: longZeroAddress(num),
      create: false,
      data,
      gasLimit: gas,
    })
    .finally(() => {
      evm.systemContract = undefined;
      system.revert();
    });
  const result = functionResult(num, sender > 0n ? sender : 2n, outcome, {
    gas,
    functionParameters: data,
    created: false,
  });
  const status = outcome.success
    ? undefined
    : code(outcome.error === 'out of gas' ? 'INSUFFICIENT_GAS' : 'CONTRACT_REVERT_EXECUTED');
  return {
    ...(status !== undefined ? { status } : {}),
    fields: { functionResult: { ...result, contractID: contractPb(num) } },
  };
}

/** The payer of a query's payment transaction, read from its body. */
function paymentPayer(payment: Pb): bigint {
  const types = nodeTypes();
  try {
    const signed = types.SignedTransaction.decode(payment.signedTransactionBytes as Uint8Array) as unknown as Pb;
    const body = types.TransactionBody.toObject(
      types.TransactionBody.decode(signed.bodyBytes as Uint8Array),
      DECODE_OPTIONS,
    );
    return numOf((body.transactionID as Pb | undefined)?.accountID, 'accountNum');
  } catch {
    return 0n;
  }
}
