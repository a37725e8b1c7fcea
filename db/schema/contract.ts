import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { bytea, nanosTimestamp } from './column-types.ts';
import { entityType } from './entity.ts';

export const contract = pgTable(
  'contract',
  {
    id: bigint('id', { mode: 'bigint' }).notNull(),
    fileId: bigint('file_id', { mode: 'bigint' }),
    initcode: bytea('initcode'),
    runtimeBytecode: bytea('runtime_bytecode'),
  },
  (t) => [primaryKey({ name: 'contract_pkey', columns: [t.id] })],
);

export const contractAction = pgTable(
  'contract_action',
  {
    callDepth: integer('call_depth').notNull(),
    callType: integer('call_type'),
    caller: bigint('caller', { mode: 'bigint' }),
    callerType: entityType('caller_type').default('CONTRACT'),
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    gas: bigint('gas', { mode: 'bigint' }).notNull(),
    gasUsed: bigint('gas_used', { mode: 'bigint' }).notNull(),
    index: integer('index').notNull(),
    input: bytea('input'),
    recipientAccount: bigint('recipient_account', { mode: 'bigint' }),
    recipientAddress: bytea('recipient_address'),
    recipientContract: bigint('recipient_contract', { mode: 'bigint' }),
    resultData: bytea('result_data'),
    resultDataType: integer('result_data_type').notNull(),
    value: bigint('value', { mode: 'bigint' }).notNull(),
    callOperationType: integer('call_operation_type'),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ name: 'contract_action_pkey', columns: [t.consensusTimestamp, t.index] })],
);

export const contractLog = pgTable(
  'contract_log',
  {
    bloom: bytea('bloom').notNull(),
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    contractId: bigint('contract_id', { mode: 'bigint' }).notNull(),
    data: bytea('data').notNull(),
    index: integer('index').notNull(),
    topic0: bytea('topic0'),
    topic1: bytea('topic1'),
    topic2: bytea('topic2'),
    topic3: bytea('topic3'),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    rootContractId: bigint('root_contract_id', { mode: 'bigint' }),
    transactionHash: bytea('transaction_hash'),
    transactionIndex: integer('transaction_index'),
    synthetic: boolean('synthetic'),
  },
  (t) => [
    primaryKey({ name: 'contract_log_pkey', columns: [t.consensusTimestamp, t.index] }),
    index('contract_log__contract_id_timestamp_index').on(
      t.contractId,
      t.consensusTimestamp.desc().nullsFirst(),
      t.index,
    ),
  ],
);

export const contractResult = pgTable(
  'contract_result',
  {
    functionParameters: bytea('function_parameters').notNull(),
    gasLimit: bigint('gas_limit', { mode: 'bigint' }).notNull(),
    functionResult: bytea('function_result'),
    gasUsed: bigint('gas_used', { mode: 'bigint' }),
    consensusTimestamp: nanosTimestamp('consensus_timestamp').notNull(),
    amount: bigint('amount', { mode: 'bigint' }),
    bloom: bytea('bloom'),
    callResult: bytea('call_result'),
    contractId: bigint('contract_id', { mode: 'bigint' }).notNull(),
    createdContractIds: bigint('created_contract_ids', { mode: 'bigint' }).array(),
    errorMessage: text('error_message'),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    senderId: bigint('sender_id', { mode: 'bigint' }),
    failedInitcode: bytea('failed_initcode'),
    transactionHash: bytea('transaction_hash'),
    transactionIndex: integer('transaction_index'),
    transactionResult: smallint('transaction_result').notNull(),
    transactionNonce: integer('transaction_nonce').notNull().default(0),
    gasConsumed: bigint('gas_consumed', { mode: 'bigint' }),
  },
  (t) => [
    primaryKey({ name: 'contract_result_pkey', columns: [t.consensusTimestamp] }),
    index('contract_result__id_sender_timestamp').on(t.contractId, t.senderId, t.consensusTimestamp),
    index('contract_result__id_timestamp').on(t.contractId, t.consensusTimestamp),
    index('contract_result__sender_timestamp').on(t.senderId, t.consensusTimestamp),
  ],
);

export const contractState = pgTable(
  'contract_state',
  {
    contractId: bigint('contract_id', { mode: 'bigint' }).notNull(),
    createdTimestamp: bigint('created_timestamp', { mode: 'bigint' }).notNull(),
    modifiedTimestamp: bigint('modified_timestamp', { mode: 'bigint' }).notNull(),
    slot: bytea('slot').notNull(),
    value: bytea('value'),
  },
  (t) => [primaryKey({ name: 'contract_state_pkey', columns: [t.contractId, t.slot] })],
);

export const contractStateChange = pgTable(
  'contract_state_change',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    contractId: bigint('contract_id', { mode: 'bigint' }).notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    slot: bytea('slot').notNull(),
    valueRead: bytea('value_read').notNull(),
    valueWritten: bytea('value_written'),
    migration: boolean('migration').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'contract_state_change_pkey', columns: [t.consensusTimestamp, t.contractId, t.slot] }),
    index('contract_state_change__id_slot_timestamp').on(t.contractId, t.slot, t.consensusTimestamp),
  ],
);

export const contractTransaction = pgTable(
  'contract_transaction',
  {
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    entityId: bigint('entity_id', { mode: 'bigint' }).notNull(),
    contractIds: bigint('contract_ids', { mode: 'bigint' }).array().notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ name: 'contract_transaction__pk', columns: [t.consensusTimestamp, t.entityId] })],
);

/** Hashes of contract transactions for lookups by hash (its hash index is in migration 0003). */
export const contractTransactionHash = pgTable('contract_transaction_hash', {
  consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
  hash: bytea('hash').notNull(),
  payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
  entityId: bigint('entity_id', { mode: 'bigint' }).notNull(),
  transactionResult: smallint('transaction_result').notNull(),
});

export const ethereumTransaction = pgTable(
  'ethereum_transaction',
  {
    accessList: bytea('access_list'),
    callDataId: bigint('call_data_id', { mode: 'bigint' }),
    callData: bytea('call_data'),
    chainId: bytea('chain_id'),
    consensusTimestamp: bigint('consensus_timestamp', { mode: 'bigint' }).notNull(),
    data: bytea('data').notNull(),
    gasLimit: bigint('gas_limit', { mode: 'bigint' }).notNull(),
    gasPrice: bytea('gas_price'),
    hash: bytea('hash').notNull(),
    maxFeePerGas: bytea('max_fee_per_gas'),
    maxGasAllowance: bigint('max_gas_allowance', { mode: 'bigint' }).notNull(),
    maxPriorityFeePerGas: bytea('max_priority_fee_per_gas'),
    nonce: bigint('nonce', { mode: 'bigint' }).notNull(),
    payerAccountId: bigint('payer_account_id', { mode: 'bigint' }).notNull(),
    recoveryId: smallint('recovery_id'),
    signatureR: bytea('signature_r').notNull(),
    signatureS: bytea('signature_s').notNull(),
    signatureV: bytea('signature_v'),
    toAddress: bytea('to_address'),
    type: smallint('type').notNull(),
    value: bytea('value'),
    authorizationList: jsonb('authorization_list'),
  },
  (t) => [primaryKey({ name: 'ethereum_transaction_pkey', columns: [t.consensusTimestamp] })],
);
