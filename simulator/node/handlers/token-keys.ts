/**
 * A token's role keys as TokenCreate and TokenUpdate read them (HIP-540): each body field, the settings field it sets,
 * the status of a key that is not structurally valid, and the status of a token without that key. An empty KeyList
 * in an update is the sentinel that removes a key.
 */
import type { LedgerKey, TokenSettings } from '../../ledger/ledger.ts';
import { ensure, type Pb } from '../handling.ts';
import { keyFromPb } from '../signatures.ts';

export type RoleKey = keyof Pick<
  TokenSettings,
  'adminKey' | 'kycKey' | 'freezeKey' | 'wipeKey' | 'supplyKey' | 'feeScheduleKey' | 'pauseKey' | 'metadataKey'
>;

interface TokenKeyField {
  readonly field: string;
  readonly name: RoleKey;
  readonly invalid: string;
  readonly missing: string;
}

/** In the node's order (TokenKey): admin first, then the role keys. */
export const TOKEN_KEYS: readonly TokenKeyField[] = [
  { field: 'adminKey', name: 'adminKey', invalid: 'INVALID_ADMIN_KEY', missing: 'TOKEN_HAS_NO_ADMIN_KEY' },
  {
    field: 'fee_schedule_key',
    name: 'feeScheduleKey',
    invalid: 'INVALID_CUSTOM_FEE_SCHEDULE_KEY',
    missing: 'TOKEN_HAS_NO_FEE_SCHEDULE_KEY',
  },
  { field: 'supplyKey', name: 'supplyKey', invalid: 'INVALID_SUPPLY_KEY', missing: 'TOKEN_HAS_NO_SUPPLY_KEY' },
  { field: 'wipeKey', name: 'wipeKey', invalid: 'INVALID_WIPE_KEY', missing: 'TOKEN_HAS_NO_WIPE_KEY' },
  { field: 'pause_key', name: 'pauseKey', invalid: 'INVALID_PAUSE_KEY', missing: 'TOKEN_HAS_NO_PAUSE_KEY' },
  { field: 'freezeKey', name: 'freezeKey', invalid: 'INVALID_FREEZE_KEY', missing: 'TOKEN_HAS_NO_FREEZE_KEY' },
  { field: 'kycKey', name: 'kycKey', invalid: 'INVALID_KYC_KEY', missing: 'TOKEN_HAS_NO_KYC_KEY' },
  { field: 'metadata_key', name: 'metadataKey', invalid: 'INVALID_METADATA_KEY', missing: 'TOKEN_HAS_NO_METADATA_KEY' },
];

/** Whether a decoded Key is the empty KeyList that removes a key. */
export function isKeyRemoval(pb: unknown): boolean {
  if (!pb || typeof pb !== 'object') return false;
  const key = pb as Pb;
  const list = key.keyList as Pb | undefined;
  return (
    Object.keys(key).length === 1 && list !== undefined && ((list.keys as unknown[] | undefined) ?? []).length === 0
  );
}

/** Whether a key is one the node stores: no empty key list or threshold key at any depth. */
function structurallyValid(key: LedgerKey): boolean {
  return key.kind !== 'list' || (key.keys.length > 0 && key.keys.every(structurallyValid));
}

/** A key the body sets: structurally valid (else the field's INVALID_…_KEY). */
export function validKey(pb: unknown, invalid: string): LedgerKey {
  const key = keyFromPb(pb);
  ensure(key && structurallyValid(key), invalid);
  return key;
}

/** One of `keys` must sign (a 1-of-n threshold key). */
export const oneOf = (...keys: LedgerKey[]): LedgerKey => ({ kind: 'list', keys, threshold: 1 });
/** All of `keys` must sign. */
export const allOf = (...keys: LedgerKey[]): LedgerKey => ({ kind: 'list', keys });
