/**
 * The reference's composite transaction constructor (rosetta/app/services/construction/
 * composite_transaction_constructor.go): operations all of one type pick the constructor of that type, and a
 * transaction read back picks the one of its kind. It has two: `CRYPTOTRANSFER` and `CRYPTOCREATEACCOUNT`.
 */
import type { RosettaAccount } from '../domain/account-id.ts';
import { RosettaError } from '../errors.ts';
import { CREATE_MAX_FEE, CRYPTO_CREATE_TYPE, constructCreate, parseCreate, preprocessCreate } from './crypto-create.ts';
import {
  CRYPTO_TRANSFER_TYPE,
  constructTransfer,
  parseTransfer,
  preprocessTransfer,
  TRANSFER_MAX_FEE,
} from './crypto-transfer.ts';
import { CRYPTO_CREATE_ACCOUNT, CRYPTO_TRANSFER } from './hapi/messages.ts';
import type { TransactionData } from './hapi/transaction-build.ts';
import type { SdkTransaction } from './hapi/transaction-bytes.ts';
import type { ConstructionOperation } from './operations.ts';
import type { Parsed } from './validate-operations.ts';

interface Constructor {
  readonly maxFee: bigint;
  preprocess(operations: readonly ConstructionOperation[]): RosettaAccount[];
  construct(operations: readonly ConstructionOperation[]): { data: TransactionData; signers: RosettaAccount[] };
  parse(transaction: SdkTransaction): Parsed;
}

const CONSTRUCTORS: ReadonlyMap<string, Constructor> = new Map<string, Constructor>([
  [
    CRYPTO_CREATE_TYPE,
    {
      maxFee: CREATE_MAX_FEE,
      preprocess: (operations) => [preprocessCreate(operations).payer],
      construct: constructCreate,
      parse: parseCreate,
    },
  ],
  [
    CRYPTO_TRANSFER_TYPE,
    { maxFee: TRANSFER_MAX_FEE, preprocess: preprocessTransfer, construct: constructTransfer, parse: parseTransfer },
  ],
]);

const BY_KIND: ReadonlyMap<number, string> = new Map([
  [CRYPTO_CREATE_ACCOUNT, CRYPTO_CREATE_TYPE],
  [CRYPTO_TRANSFER, CRYPTO_TRANSFER_TYPE],
]);

/** `validate`: operations there are (120), of one type (109) that has a constructor (127). */
function constructorFor(operations: readonly ConstructionOperation[]): Constructor {
  const first = operations[0];
  if (!first) throw RosettaError.of('EmptyOperations');
  if (operations.some((operation) => operation.type !== first.type)) {
    throw RosettaError.of('MultipleOperationTypesPresent');
  }
  const builder = CONSTRUCTORS.get(first.type);
  if (!builder) throw RosettaError.of('OperationTypeUnsupported');
  return builder;
}

/** The accounts that must sign; the first pays. */
export const preprocess = (operations: readonly ConstructionOperation[]): RosettaAccount[] =>
  constructorFor(operations).preprocess(operations);

export const construct = (operations: readonly ConstructionOperation[]) =>
  constructorFor(operations).construct(operations);

/** The max fee of a type (`GetDefaultMaxTransactionFee`): 128 for a type without a constructor. */
export function maxFeeOf(operationType: string): bigint {
  const builder = CONSTRUCTORS.get(operationType);
  if (!builder) throw RosettaError.of('InvalidOperationType');
  return builder.maxFee;
}

/** A transaction read back: only the kinds the reference builds (121 for any other the SDK reads). */
export function parse(transaction: SdkTransaction): Parsed {
  const type = BY_KIND.get(transaction.kind);
  const builder = type === undefined ? undefined : CONSTRUCTORS.get(type);
  if (!builder) throw RosettaError.of('TransactionInvalidType');
  return builder.parse(transaction);
}
