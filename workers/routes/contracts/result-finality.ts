import { committedValue } from '../../../db/queries/committed-end.ts';
import type { ContractTransactionTarget, TargetFields } from '../../../db/queries/contract-result-details.ts';

const SUCCESS = 22;

/**
 * Whether the transaction a target names can no longer change (docs/adr/0045), given what its statement said of
 * the pick and of the committed history. Its contract result, logs, state changes and actions are written once,
 * with it. A contract and timestamp name one transaction for good. A hash names the successful execution, else the
 * latest attempt: once one succeeded, no later attempt can (an Ethereum nonce, a HAPI duplicate's result), but a
 * failed one may still be followed by another. A transaction id and nonce name one within the consensus window
 * after the valid start: settled once the ingest has committed past it.
 */
export function isSettledTarget(target: ContractTransactionTarget, fields: TargetFields): boolean {
  const committed = committedValue(fields.committed_end);
  if (committed === null) return false;
  switch (target.kind) {
    case 'contract':
      return true;
    case 'hash':
      return fields.target_result === SUCCESS;
    case 'transaction':
      return committed >= target.maxConsensusNs;
  }
}
