/**
 * Operation types and statuses as the reference derives them (rosetta/app/domain/types/constants.go): a
 * transaction's type is the name of its body in HAPI's TransactionBody, upper case without underscores, for the
 * body fields up to 57 (`CRYPTOTRANSFER`), else `UNKNOWN`; its status the ResponseCodeEnum name for codes up to
 * 337 that HAPI names, else `GENERAL_ERROR`. Fees are operations of their own type, `FEE`.
 */
import { knownResponseCodeName } from '../../../db/codes/response-codes.ts';
import { transactionTypeName } from '../../../db/codes/transaction-types.ts';

/** The newest body field and result code the reference names; later ones are `UNKNOWN` and `GENERAL_ERROR`. */
const MAX_TRANSACTION_TYPE = 57;
const MAX_TRANSACTION_RESULT = 337;

export const UNKNOWN_OPERATION_TYPE = 'UNKNOWN';
export const FEE_OPERATION_TYPE = 'FEE';
export const CRYPTO_TRANSFER_OPERATION_TYPE = 'CRYPTOTRANSFER';
export const GENERAL_ERROR_STATUS = 'GENERAL_ERROR';

const SUCCESS = 22;
const FEE_SCHEDULE_FILE_PART_UPLOADED = 104;
const SUCCESS_BUT_MISSING_EXPECTED_OPERATION = 220;

/** The statuses of a transaction that took effect (`successful` in `/network/options`). */
export function isSuccessfulResult(result: number): boolean {
  return (
    result === SUCCESS ||
    result === FEE_SCHEDULE_FILE_PART_UPLOADED ||
    result === SUCCESS_BUT_MISSING_EXPECTED_OPERATION
  );
}

/** The operation type of a transaction of this `transaction.type`. */
export function operationType(transactionType: number): string {
  return transactionType >= 0 && transactionType <= MAX_TRANSACTION_TYPE
    ? transactionTypeName(transactionType)
    : UNKNOWN_OPERATION_TYPE;
}

/** The operation status of a transaction of this `transaction.result`. */
export function operationStatus(result: number): string {
  const name = result >= 0 && result <= MAX_TRANSACTION_RESULT ? knownResponseCodeName(result) : undefined;
  return name ?? GENERAL_ERROR_STATUS;
}

export const SUCCESS_STATUS = operationStatus(SUCCESS);

/** Every operation type `/network/options` lists, by transaction type, then `FEE`. */
export const OPERATION_TYPES: readonly string[] = [
  ...new Set(Array.from({ length: MAX_TRANSACTION_TYPE + 1 }, (_, type) => operationType(type))),
  FEE_OPERATION_TYPE,
];

export interface OperationStatus {
  readonly status: string;
  readonly successful: boolean;
}

/** Every operation status `/network/options` lists: `GENERAL_ERROR`, then the result codes up to 337 in order. */
export const OPERATION_STATUSES: readonly OperationStatus[] = (() => {
  const statuses = new Map<string, OperationStatus>([
    [GENERAL_ERROR_STATUS, { status: GENERAL_ERROR_STATUS, successful: false }],
  ]);
  for (let code = 0; code <= MAX_TRANSACTION_RESULT; code++) {
    const status = knownResponseCodeName(code);
    if (status !== undefined) statuses.set(status, { status, successful: isSuccessfulResult(code) });
  }
  return [...statuses.values()];
})();
