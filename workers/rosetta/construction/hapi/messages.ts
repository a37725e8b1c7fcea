/**
 * The HAPI messages the Construction API reads (services_transaction.proto and the files it imports, as
 * `@hiero-ledger/proto` ships them), field by field. Members of `TransactionBody`'s `data` that it does not take
 * apart are listed as messages without fields: their bytes are checked for form, and the member tells the kind.
 */
import type { FieldDef, MessageDef } from './wire.ts';

export const TIMESTAMP: MessageDef = { 1: { name: 'seconds', kind: 'int64' }, 2: { name: 'nanos', kind: 'int32' } };

export const DURATION: MessageDef = { 1: { name: 'seconds', kind: 'int64' } };

export const ACCOUNT_ID: MessageDef = {
  1: { name: 'shardNum', kind: 'int64' },
  2: { name: 'realmNum', kind: 'int64' },
  3: { name: 'accountNum', kind: 'int64', oneof: 'account' },
  4: { name: 'alias', kind: 'bytes', oneof: 'account' },
};

export const CONTRACT_ID: MessageDef = {
  1: { name: 'shardNum', kind: 'int64' },
  2: { name: 'realmNum', kind: 'int64' },
  3: { name: 'contractNum', kind: 'int64', oneof: 'contract' },
  4: { name: 'evmAddress', kind: 'bytes', oneof: 'contract' },
};

export const KEY: MessageDef = {
  1: { name: 'contractID', kind: 'message', message: () => CONTRACT_ID, oneof: 'key' },
  2: { name: 'ed25519', kind: 'bytes', oneof: 'key' },
  3: { name: 'RSA_3072', kind: 'bytes', oneof: 'key' },
  4: { name: 'ECDSA_384', kind: 'bytes', oneof: 'key' },
  5: { name: 'thresholdKey', kind: 'message', message: () => THRESHOLD_KEY, oneof: 'key' },
  6: { name: 'keyList', kind: 'message', message: () => KEY_LIST, oneof: 'key' },
  7: { name: 'ECDSA_secp256k1', kind: 'bytes', oneof: 'key' },
  8: { name: 'delegatableContractId', kind: 'message', message: () => CONTRACT_ID, oneof: 'key' },
};

export const KEY_LIST: MessageDef = { 1: { name: 'keys', kind: 'message', repeated: true, message: () => KEY } };

export const THRESHOLD_KEY: MessageDef = {
  1: { name: 'threshold', kind: 'uint32' },
  2: { name: 'keys', kind: 'message', message: () => KEY_LIST },
};

export const TRANSACTION_ID: MessageDef = {
  1: { name: 'transactionValidStart', kind: 'message', message: () => TIMESTAMP },
  2: { name: 'accountID', kind: 'message', message: () => ACCOUNT_ID },
  3: { name: 'scheduled', kind: 'bool' },
  4: { name: 'nonce', kind: 'int32' },
};

const ACCOUNT_AMOUNT: MessageDef = {
  1: { name: 'accountID', kind: 'message', message: () => ACCOUNT_ID },
  2: { name: 'amount', kind: 'sint64' },
  3: { name: 'isApproval', kind: 'bool' },
  4: { name: 'preTxAllowanceHook', kind: 'message', oneof: 'hookCall' },
  5: { name: 'prePostTxAllowanceHook', kind: 'message', oneof: 'hookCall' },
};

const TRANSFER_LIST: MessageDef = {
  1: { name: 'accountAmounts', kind: 'message', repeated: true, message: () => ACCOUNT_AMOUNT },
};

export const CRYPTO_TRANSFER_BODY: MessageDef = {
  1: { name: 'transfers', kind: 'message', message: () => TRANSFER_LIST },
  2: { name: 'tokenTransfers', kind: 'message', repeated: true },
};

export const CRYPTO_CREATE_BODY: MessageDef = {
  1: { name: 'key', kind: 'message', message: () => KEY },
  2: { name: 'initialBalance', kind: 'uint64' },
  3: { name: 'proxyAccountID', kind: 'message', message: () => ACCOUNT_ID },
  6: { name: 'sendRecordThreshold', kind: 'uint64' },
  7: { name: 'receiveRecordThreshold', kind: 'uint64' },
  8: { name: 'receiverSigRequired', kind: 'bool' },
  9: { name: 'autoRenewPeriod', kind: 'message', message: () => DURATION },
  10: { name: 'shardID', kind: 'message' },
  11: { name: 'realmID', kind: 'message' },
  12: { name: 'newRealmAdminKey', kind: 'message', message: () => KEY },
  13: { name: 'memo', kind: 'string' },
  14: { name: 'maxAutomaticTokenAssociations', kind: 'int32' },
  15: { name: 'stakedAccountId', kind: 'message', message: () => ACCOUNT_ID, oneof: 'stakedId' },
  16: { name: 'stakedNodeId', kind: 'int64', oneof: 'stakedId' },
  17: { name: 'declineReward', kind: 'bool' },
  18: { name: 'alias', kind: 'bytes' },
  19: { name: 'hookCreationDetails', kind: 'message', repeated: true },
  20: { name: 'delegationAddress', kind: 'bytes' },
};

/** The `data` members of TransactionBody the Construction API builds. */
export const CRYPTO_CREATE_ACCOUNT = 11;
export const CRYPTO_TRANSFER = 14;

/**
 * The `data` members the Go SDK the reference builds with (hiero-sdk-go v2.78.1, `TransactionFromBytes`) turns into
 * a transaction of its own; any other member, or none, is a body it cannot read.
 */
export const SDK_TRANSACTION_KINDS: ReadonlySet<number> = new Set([
  7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 29, 31, 32, 33, 34, 35, 36, 37, 38,
  39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 52, 53, 54, 55, 56, 57, 58, 59, 60, 74, 75,
]);

/** The field numbers of TransactionBody's `data` members in the .proto files: 7 to 81 but 30, 61 to 64 and 73. */
const DATA_MEMBERS = [
  ...Array.from({ length: 54 }, (_, i) => 7 + i).filter((n) => n !== 30),
  ...Array.from({ length: 8 }, (_, i) => 65 + i),
  ...Array.from({ length: 8 }, (_, i) => 74 + i),
];

/** The name a decoded TransactionBody gives its `data` member of field `number`. */
export const dataName = (number: number): string => `data${number}`;

const dataMembers = (): Record<number, FieldDef> => {
  const members: Record<number, FieldDef> = {};
  for (const number of DATA_MEMBERS) members[number] = { name: dataName(number), kind: 'message', oneof: 'data' };
  members[CRYPTO_CREATE_ACCOUNT] = { ...members[CRYPTO_CREATE_ACCOUNT], message: () => CRYPTO_CREATE_BODY } as FieldDef;
  members[CRYPTO_TRANSFER] = { ...members[CRYPTO_TRANSFER], message: () => CRYPTO_TRANSFER_BODY } as FieldDef;
  return members;
};

/** The field number of the `data` member a decoded TransactionBody holds; 0 when it holds none. */
export function dataMember(body: Readonly<Record<string, unknown>>): number {
  for (const number of DATA_MEMBERS) if (body[dataName(number)] !== undefined) return number;
  return 0;
}

export const TRANSACTION_BODY: MessageDef = {
  1: { name: 'transactionID', kind: 'message', message: () => TRANSACTION_ID },
  2: { name: 'nodeAccountID', kind: 'message', message: () => ACCOUNT_ID },
  3: { name: 'transactionFee', kind: 'uint64' },
  4: { name: 'transactionValidDuration', kind: 'message', message: () => DURATION },
  5: { name: 'generateRecord', kind: 'bool' },
  6: { name: 'memo', kind: 'string' },
  ...dataMembers(),
  73: { name: 'batchKey', kind: 'message', message: () => KEY },
  1001: { name: 'maxCustomFees', kind: 'message', repeated: true },
  1002: { name: 'highVolume', kind: 'bool' },
};

const SIGNATURE_PAIR: MessageDef = {
  1: { name: 'pubKeyPrefix', kind: 'bytes' },
  2: { name: 'contract', kind: 'bytes', oneof: 'signature' },
  3: { name: 'ed25519', kind: 'bytes', oneof: 'signature' },
  4: { name: 'RSA_3072', kind: 'bytes', oneof: 'signature' },
  5: { name: 'ECDSA_384', kind: 'bytes', oneof: 'signature' },
  6: { name: 'ECDSA_secp256k1', kind: 'bytes', oneof: 'signature' },
};

export const SIGNATURE_MAP: MessageDef = {
  1: { name: 'sigPair', kind: 'message', repeated: true, message: () => SIGNATURE_PAIR },
};

export const SIGNED_TRANSACTION: MessageDef = {
  1: { name: 'bodyBytes', kind: 'bytes' },
  2: { name: 'sigMap', kind: 'message', message: () => SIGNATURE_MAP },
  3: { name: 'useSerializedTxMessageHashAlgorithm', kind: 'bool' },
};

export const TRANSACTION: MessageDef = {
  1: { name: 'body', kind: 'message', message: () => TRANSACTION_BODY },
  2: { name: 'sigs', kind: 'message' },
  3: { name: 'sigMap', kind: 'message', message: () => SIGNATURE_MAP },
  4: { name: 'bodyBytes', kind: 'bytes' },
  5: { name: 'signedTransactionBytes', kind: 'bytes' },
};

/** The SDKs' TransactionList (sdk_transaction_list.proto): one Transaction per node. */
export const TRANSACTION_LIST: MessageDef = {
  1: { name: 'transactionList', kind: 'message', repeated: true, message: () => TRANSACTION },
};

export const TRANSACTION_RESPONSE: MessageDef = {
  1: { name: 'nodeTransactionPrecheckCode', kind: 'int32' },
  2: { name: 'cost', kind: 'uint64' },
};
