/**
 * `unmarshallTransactionFromHexString` (construction_service.go): a transaction as hex (`0x` optional) that must
 * decode (115), that the SDK must read (117), and that the reference builds (121: a transfer or an account creation).
 */
import { RosettaError } from '../errors.ts';
import { goHexDecode } from '../go-json/hex.ts';
import { CRYPTO_CREATE_ACCOUNT, CRYPTO_TRANSFER } from './hapi/messages.ts';
import { readTransaction, type SdkTransaction, TransactionBytesError } from './hapi/transaction-bytes.ts';

/** `tools.SafeRemoveHexPrefix`. */
export const withoutHexPrefix = (text: string): string => (text.startsWith('0x') ? text.slice(2) : text);

export function transactionFromHex(text: string): SdkTransaction {
  const bytes = goHexDecode(withoutHexPrefix(text));
  if (typeof bytes === 'string') throw RosettaError.of('TransactionDecodeFailed');
  let transaction: SdkTransaction;
  try {
    transaction = readTransaction(bytes);
  } catch (error) {
    if (error instanceof TransactionBytesError) throw RosettaError.of('TransactionUnmarshallingFailed');
    throw error;
  }
  if (transaction.kind !== CRYPTO_TRANSFER && transaction.kind !== CRYPTO_CREATE_ACCOUNT) {
    throw RosettaError.of('TransactionInvalidType');
  }
  return transaction;
}
