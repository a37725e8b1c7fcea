/**
 * The Mesh objects the Rosetta API answers with, members in the order of the reference's Go structs (the order Go
 * writes them); optional members are the ones Go leaves out when empty (`omitempty`). Maps (`metadata`) are built
 * with their keys sorted, as Go writes maps. Checked against the Mesh OpenAPI document by the tests
 * (test/data/mesh/api.json).
 */
import type { Currency } from './currency.ts';
import type { OperationStatus } from './operation-types.ts';

export interface BlockIdentifier {
  readonly index: bigint;
  readonly hash: string;
}

export interface AccountIdentifier {
  readonly address: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface Amount {
  readonly value: string;
  readonly currency: Currency;
}

export interface Operation {
  readonly operation_identifier: { readonly index: number };
  readonly type: string;
  readonly status?: string;
  readonly account?: AccountIdentifier;
  readonly amount?: Amount;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface TransactionIdentifier {
  readonly hash: string;
}

export interface Transaction {
  readonly transaction_identifier: TransactionIdentifier;
  readonly operations: readonly Operation[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface Block {
  readonly block_identifier: BlockIdentifier;
  readonly parent_block_identifier: BlockIdentifier;
  /** Milliseconds since the epoch. */
  readonly timestamp: bigint;
  readonly transactions: readonly Transaction[];
}

export interface Peer {
  readonly peer_id: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface Version {
  readonly rosetta_version: string;
  readonly node_version: string;
  readonly middleware_version?: string;
}

export interface Allow {
  readonly operation_statuses: readonly OperationStatus[];
  readonly operation_types: readonly string[];
  readonly errors: readonly unknown[];
  readonly historical_balance_lookup: boolean;
  readonly call_methods: readonly string[];
  readonly balance_exemptions: readonly unknown[];
  readonly mempool_coins: boolean;
}
