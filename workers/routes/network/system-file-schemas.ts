import type { MessageDef } from '../../format/protobuf-strict.ts';

/**
 * The HAPI messages of the exchange rate file (0.0.112) and the fee schedule file (0.0.111). Every message-typed
 * field is declared, also the ones the API does not show, because their contents must be well formed for the
 * file to parse (as the reference requires); scalar fields the API does not show are skipped like unknown ones.
 */

const TIMESTAMP_SECONDS: MessageDef = { 1: { name: 'seconds', kind: 'int64' } };

const EXCHANGE_RATE: MessageDef = {
  1: { name: 'hbarEquiv', kind: 'int32' },
  2: { name: 'centEquiv', kind: 'int32' },
  3: { name: 'expirationTime', kind: 'message', message: TIMESTAMP_SECONDS },
};

export const EXCHANGE_RATE_SET: MessageDef = {
  1: { name: 'currentRate', kind: 'message', message: EXCHANGE_RATE },
  2: { name: 'nextRate', kind: 'message', message: EXCHANGE_RATE },
};

/** Prices of one provider's resources, in thousandths of a tinycent (the EVM's HAPI gas reads all of them). */
const FEE_COMPONENTS: MessageDef = {
  1: { name: 'min', kind: 'int64' },
  2: { name: 'max', kind: 'int64' },
  3: { name: 'constant', kind: 'int64' },
  4: { name: 'bpt', kind: 'int64' },
  5: { name: 'vpt', kind: 'int64' },
  6: { name: 'rbh', kind: 'int64' },
  7: { name: 'sbh', kind: 'int64' },
  8: { name: 'gas', kind: 'int64' },
  9: { name: 'tv', kind: 'int64' },
  10: { name: 'bpr', kind: 'int64' },
  11: { name: 'sbpr', kind: 'int64' },
};

const FEE_DATA: MessageDef = {
  1: { name: 'nodedata', kind: 'message', message: FEE_COMPONENTS },
  2: { name: 'networkdata', kind: 'message', message: FEE_COMPONENTS },
  3: { name: 'servicedata', kind: 'message', message: FEE_COMPONENTS },
  4: { name: 'subType', kind: 'enum' },
};

const TRANSACTION_FEE_SCHEDULE: MessageDef = {
  1: { name: 'hederaFunctionality', kind: 'enum' },
  2: { name: 'feeData', kind: 'message', message: FEE_DATA },
  3: { name: 'fees', kind: 'message', message: FEE_DATA, repeated: true },
};

const FEE_SCHEDULE: MessageDef = {
  1: { name: 'transactionFeeSchedule', kind: 'message', message: TRANSACTION_FEE_SCHEDULE, repeated: true },
  2: { name: 'expiryTime', kind: 'message', message: TIMESTAMP_SECONDS },
};

export const CURRENT_AND_NEXT_FEE_SCHEDULE: MessageDef = {
  1: { name: 'currentFeeSchedule', kind: 'message', message: FEE_SCHEDULE },
  2: { name: 'nextFeeSchedule', kind: 'message', message: FEE_SCHEDULE },
};

/** `HederaFunctionality` numbers of the transaction types whose gas price the fees route shows. */
export const GAS_PRICED_FUNCTIONALITIES: ReadonlyMap<number, string> = new Map([
  [6, 'ContractCall'],
  [7, 'ContractCreate'],
  [84, 'EthereumTransaction'],
]);
