/**
 * What every constructor of the reference checks first (rosetta/app/services/construction/common.go
 * `validateOperations`), and what a parse gives back.
 */
import type { RosettaAccount } from '../domain/account-id.ts';
import type { Operation } from '../domain/mesh-types.ts';
import { RosettaError } from '../errors.ts';
import type { ConstructionOperation } from './operations.ts';

/** A transaction read back: its operations and the accounts that must sign it. */
export interface Parsed {
  readonly operations: readonly Operation[];
  readonly signers: readonly RosettaAccount[];
}

/** Operations there are (120), `size` of them when it is not 0 (130), each with an amount (130) and `type` (128). */
export function checkOperations(operations: readonly ConstructionOperation[], size: number, type: string): void {
  if (operations.length === 0) throw RosettaError.of('EmptyOperations');
  if (size !== 0 && operations.length !== size) throw RosettaError.of('InvalidOperations');
  for (const operation of operations) {
    if (operation.amount === undefined) throw RosettaError.of('InvalidOperations');
    if (operation.type !== type) throw RosettaError.of('InvalidOperationType');
  }
}
