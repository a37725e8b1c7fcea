/**
 * `CRYPTOTRANSFER` (rosetta/app/services/construction/crypto_transfer_transaction_constructor.go): hbar moved between
 * accounts named by id or key alias, in amounts that are not zero and sum to zero; every account that sends signs.
 * The reference gathers the senders, and parses transfers back, through Go maps, whose order is random: here both
 * keep the order of the operations and of the transfer list, so the payer (the first signer) is the first sender.
 */
import type { RosettaAccount } from '../domain/account-id.ts';
import type { Operation } from '../domain/mesh-types.ts';
import { RosettaError } from '../errors.ts';
import { accountText, fromSdkAccountId, toSdkAccountId } from './accounts.ts';
import { CRYPTO_TRANSFER } from './hapi/messages.ts';
import type { HbarTransfer, TransactionData } from './hapi/transaction-build.ts';
import { type SdkTransaction, sdkAccountId } from './hapi/transaction-bytes.ts';
import type { Decoded } from './hapi/wire.ts';
import { type ConstructionOperation, meshOperation } from './operations.ts';
import { checkOperations, type Parsed } from './validate-operations.ts';

export const CRYPTO_TRANSFER_TYPE = 'CRYPTOTRANSFER';

/** The Go SDK's default max fee of a TransferTransaction: 1 hbar. */
export const TRANSFER_MAX_FEE = 100_000_000n;

/** Distinct accounts by `AccountId.String()`, in the order first met. */
function distinct(accounts: readonly RosettaAccount[]): RosettaAccount[] {
  const seen = new Map<string, RosettaAccount>();
  for (const account of accounts) if (!seen.has(accountText(account))) seen.set(accountText(account), account);
  return [...seen.values()];
}

/** `preprocess`: the senders (signers), after the reference's checks in its order. */
export function preprocessTransfer(operations: readonly ConstructionOperation[]): RosettaAccount[] {
  checkOperations(operations, 0, CRYPTO_TRANSFER_TYPE);
  const senders: RosettaAccount[] = [];
  let total = 0n;
  for (const operation of operations) {
    const amount = operation.amount as bigint;
    if (amount === 0n) throw RosettaError.of('InvalidOperationsAmount');
    if (amount < 0n) senders.push(operation.account as RosettaAccount);
    // An int64 sum, as Go adds.
    total = BigInt.asIntN(64, total + amount);
  }
  if (total !== 0n) throw RosettaError.of('InvalidOperationsTotalAmount');
  return distinct(senders);
}

/** Same AccountID as `AccountID.Compare` finds it: shard, realm, then the alias key or the number. */
const transferKey = (transfer: HbarTransfer): string =>
  `${transfer.account.shard}.${transfer.account.realm}.${transfer.account.alias ? `k${Array.from(transfer.account.alias).join(',')}` : transfer.account.num}`;

/** `Construct`: the transfer list, an account met twice holding the sum of its amounts (`AddHbarTransfer`). */
export function constructTransfer(operations: readonly ConstructionOperation[]): {
  data: TransactionData;
  signers: RosettaAccount[];
} {
  const signers = preprocessTransfer(operations);
  const transfers = new Map<string, HbarTransfer>();
  for (const operation of operations) {
    const transfer = {
      account: toSdkAccountId(operation.account as RosettaAccount),
      amount: operation.amount as bigint,
    };
    const key = transferKey(transfer);
    const known = transfers.get(key);
    transfers.set(key, known ? { ...known, amount: BigInt.asIntN(64, known.amount + transfer.amount) } : transfer);
  }
  return { data: { kind: CRYPTO_TRANSFER, transfers: [...transfers.values()] }, signers };
}

/**
 * `Parse`: an operation per account of the body's transfer list (`GetHbarTransfers`: a numbered account listed twice
 * keeps its last amount), and the senders.
 */
export function parseTransfer(transaction: SdkTransaction): Parsed {
  if (transaction.transactionIds.length === 0) throw RosettaError.of('InvalidTransaction');
  const body = transaction.body.data14 as Decoded;
  const list = ((body.transfers as Decoded | undefined)?.accountAmounts as Decoded[] | undefined) ?? [];
  const byAccount = new Map<string, { account: RosettaAccount; amount: bigint }>();
  list.forEach((transfer, position) => {
    const sdkAccount = sdkAccountId(transfer.accountID as Decoded | undefined);
    const account = fromSdkAccountId(sdkAccount);
    if (!account) throw RosettaError.of('InvalidAccount');
    const amount = (transfer.amount as bigint | undefined) ?? 0n;
    // Numbered accounts are one key of the SDK's map; each alias read is a key of its own.
    const key = sdkAccount.alias === undefined ? `n${accountText(account)}` : `a${position}`;
    byAccount.set(key, { account, amount });
  });
  const operations: Operation[] = [...byAccount.values()].map(({ account, amount }, index) =>
    meshOperation({ index: BigInt(index), type: CRYPTO_TRANSFER_TYPE, account, amount }),
  );
  const senders = distinct([...byAccount.values()].filter((t) => t.amount < 0n).map((t) => t.account));
  return { operations, signers: senders };
}
