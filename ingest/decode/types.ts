/**
 * Plain shapes of the HAPI messages the ingest reads (see plain.ts): field names as in the .proto files, int64
 * as bigint, a field is present only when it was on the wire. Only the fields the derivation uses are typed.
 */

export interface PbEntityId {
  readonly shardNum?: bigint;
  readonly realmNum?: bigint;
  readonly accountNum?: bigint;
  readonly alias?: Uint8Array;
  readonly tokenNum?: bigint;
  readonly fileNum?: bigint;
  readonly topicNum?: bigint;
  readonly contractNum?: bigint;
  readonly evm_address?: Uint8Array;
  readonly scheduleNum?: bigint;
}

export interface PbTimestamp {
  readonly seconds?: bigint;
  readonly nanos?: number;
}

export interface PbAccountAmount {
  readonly accountID?: PbEntityId;
  readonly amount?: bigint;
  readonly is_approval?: boolean;
}

export interface PbNftTransfer {
  readonly senderAccountID?: PbEntityId;
  readonly receiverAccountID?: PbEntityId;
  readonly serialNumber?: bigint;
  readonly is_approval?: boolean;
}

export interface PbTokenTransferList {
  readonly token?: PbEntityId;
  readonly transfers: readonly PbAccountAmount[];
  readonly nftTransfers: readonly PbNftTransfer[];
  readonly expected_decimals?: { readonly value?: number };
}

export interface PbTransactionId {
  readonly transactionValidStart?: PbTimestamp;
  readonly accountID?: PbEntityId;
  readonly scheduled?: boolean;
  readonly nonce?: number;
}

export interface PbReceipt {
  readonly status?: number;
  readonly accountID?: PbEntityId;
  readonly fileID?: PbEntityId;
  readonly contractID?: PbEntityId;
  readonly topicID?: PbEntityId;
  readonly topicSequenceNumber?: bigint;
  readonly topicRunningHash?: Uint8Array;
  readonly topicRunningHashVersion?: bigint;
  readonly tokenID?: PbEntityId;
  readonly newTotalSupply?: bigint;
  readonly scheduleID?: PbEntityId;
  readonly scheduledTransactionID?: PbTransactionId;
  readonly serialNumbers: readonly bigint[];
  readonly node_id?: bigint;
}

export interface PbContractLog {
  readonly contractID?: PbEntityId;
  readonly bloom?: Uint8Array;
  readonly topic: readonly Uint8Array[];
  readonly data?: Uint8Array;
}

export interface PbContractFunctionResult {
  readonly contractID?: PbEntityId;
  readonly contractCallResult?: Uint8Array;
  readonly errorMessage?: string;
  readonly bloom?: Uint8Array;
  readonly gasUsed?: bigint;
  readonly logInfo: readonly PbContractLog[];
  readonly createdContractIDs: readonly PbEntityId[];
  readonly evm_address?: { readonly value?: Uint8Array };
  readonly gas?: bigint;
  readonly amount?: bigint;
  readonly functionParameters?: Uint8Array;
  readonly sender_id?: PbEntityId;
  readonly contract_nonces: readonly { readonly contract_id?: PbEntityId; readonly nonce?: bigint }[];
  readonly signer_nonce?: { readonly value?: bigint };
}

export interface PbAssessedCustomFee {
  readonly amount?: bigint;
  readonly token_id?: PbEntityId;
  readonly fee_collector_account_id?: PbEntityId;
  readonly effective_payer_account_id: readonly PbEntityId[];
}

export interface PbTransactionRecord {
  readonly receipt?: PbReceipt;
  readonly transactionHash?: Uint8Array;
  readonly consensusTimestamp?: PbTimestamp;
  readonly transactionID?: PbTransactionId;
  readonly memo?: string;
  readonly transactionFee?: bigint;
  readonly contractCallResult?: PbContractFunctionResult;
  readonly contractCreateResult?: PbContractFunctionResult;
  readonly transferList?: { readonly accountAmounts: readonly PbAccountAmount[] };
  readonly tokenTransferLists: readonly PbTokenTransferList[];
  readonly scheduleRef?: PbEntityId;
  readonly assessed_custom_fees: readonly PbAssessedCustomFee[];
  readonly automatic_token_associations: readonly {
    readonly token_id?: PbEntityId;
    readonly account_id?: PbEntityId;
  }[];
  readonly parent_consensus_timestamp?: PbTimestamp;
  readonly alias?: Uint8Array;
  readonly ethereum_hash?: Uint8Array;
  readonly paid_staking_rewards: readonly PbAccountAmount[];
  readonly prng_bytes?: Uint8Array;
  readonly prng_number?: number;
  readonly evm_address?: Uint8Array;
  readonly new_pending_airdrops: readonly unknown[];
  readonly high_volume_pricing_multiplier?: bigint;
}

export interface PbSignaturePair {
  readonly pubKeyPrefix?: Uint8Array;
  readonly contract?: Uint8Array;
  readonly ed25519?: Uint8Array;
  readonly RSA_3072?: Uint8Array;
  readonly ECDSA_384?: Uint8Array;
  readonly ECDSA_secp256k1?: Uint8Array;
}

/** TransactionBody: the common header fields plus exactly one service body, read by the derive modules. */
export interface PbTransactionBody {
  readonly transactionID?: PbTransactionId;
  readonly nodeAccountID?: PbEntityId;
  readonly transactionFee?: bigint;
  readonly transactionValidDuration?: { readonly seconds?: bigint };
  readonly memo?: Uint8Array;
  readonly batch_key?: unknown;
  readonly max_custom_fees: readonly unknown[];
  readonly high_volume?: boolean;
  readonly [serviceBody: string]: unknown;
}
