/**
 * Operations of construction requests as the reference reads them (construction_service.go `getOperationSlice`,
 * domain/types/amount.go `NewAmount`) and writes them back (domain/types/operation.go): an account the network
 * knows by id or key alias, an amount in tinybars of exactly the HBAR currency the API reports.
 */
import { parseAccountAddress, type RosettaAccount } from '../domain/account-id.ts';
import { hbarAmount } from '../domain/currency.ts';
import { parseGoInt64 } from '../domain/entity-id.ts';
import type { Operation } from '../domain/mesh-types.ts';
import { RosettaError } from '../errors.ts';
import type { RosettaSettings } from '../settings.ts';
import { accountText } from './accounts.ts';
import type { OperationRequest } from './schemas.ts';

export interface ConstructionOperation {
  readonly index: bigint;
  readonly type: string;
  /** Absent when the request named no account. */
  readonly account: RosettaAccount | undefined;
  /** Tinybars; absent when the request gave no amount. */
  readonly amount: bigint | undefined;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
}

/** `reflect.DeepEqual` of a request's currency with the reference's HBAR (symbol, decimals and metadata). */
function isHbar(currency: NonNullable<NonNullable<OperationRequest['amount']>['currency']>): boolean {
  const metadata = currency.metadata;
  return (
    currency.symbol === 'HBAR' &&
    currency.decimals === 8 &&
    metadata !== undefined &&
    Object.keys(metadata).length === 1 &&
    metadata.issuer === 'Hedera'
  );
}

/** `NewAmount`: an int64 value (else 104) of HBAR (else 134). */
function amountOf(amount: NonNullable<OperationRequest['amount']>): bigint {
  const value = parseGoInt64(amount.value);
  if (value === undefined) throw RosettaError.of('InvalidOperationsAmount');
  const currency = amount.currency;
  if (!currency || currency.decimals < 0 || !isHbar(currency)) throw RosettaError.of('InvalidCurrency');
  return value;
}

/** `getOperationSlice`: the request's operations, after the SDK's checks (which make every operation present). */
export function readOperations(
  operations: readonly (OperationRequest | undefined)[],
  settings: RosettaSettings,
): ConstructionOperation[] {
  return operations.map((request) => {
    const operation = request as OperationRequest;
    let account: RosettaAccount | undefined;
    if (operation.account) {
      account = parseAccountAddress(operation.account.address, settings.shard, settings.realm);
      if (!account || (account.kind === 'id' && account.id.encoded === 0n)) throw RosettaError.of('InvalidAccount');
    }
    return {
      index: (operation.operation_identifier as { index: bigint }).index,
      type: operation.type,
      account,
      amount: operation.amount ? amountOf(operation.amount) : undefined,
      metadata: operation.metadata,
    };
  });
}

/** `Operation.ToRosetta`: members in the Go struct's order, empty ones left out. */
export function meshOperation(operation: {
  index: bigint;
  type: string;
  account: RosettaAccount;
  amount: bigint;
  metadata?: Readonly<Record<string, unknown>>;
}): Operation {
  return {
    operation_identifier: { index: Number(operation.index) },
    type: operation.type,
    account: { address: accountText(operation.account) },
    amount: hbarAmount(operation.amount),
    ...(operation.metadata && Object.keys(operation.metadata).length > 0 ? { metadata: operation.metadata } : {}),
  };
}
