/**
 * v6 sidecar files: gzip protobuf `SidecarFile`. The hash the record file lists is SHA-384 of the
 * decompressed bytes.
 */
import { hapi } from '../../proto/hapi.ts';
import { FormatError } from './byte-reader.ts';
import { sha384 } from './hash.ts';
import { timestampNanos } from './ids.ts';
import { toPlain } from './plain.ts';
import { unzipped } from './record-file.ts';
import type { PbEntityId } from './types.ts';

export interface PbStorageChange {
  readonly slot?: Uint8Array;
  readonly value_read?: Uint8Array;
  readonly value_written?: { readonly value?: Uint8Array };
}

export interface PbContractAction {
  readonly call_type?: number;
  readonly calling_account?: PbEntityId;
  readonly calling_contract?: PbEntityId;
  readonly gas?: bigint;
  readonly input?: Uint8Array;
  readonly recipient_account?: PbEntityId;
  readonly recipient_contract?: PbEntityId;
  readonly targeted_address?: Uint8Array;
  readonly value?: bigint;
  readonly gas_used?: bigint;
  readonly output?: Uint8Array;
  readonly revert_reason?: Uint8Array;
  readonly error?: Uint8Array;
  readonly call_depth?: number;
  readonly call_operation_type?: number;
}

export interface SidecarRecord {
  readonly consensusTimestamp: bigint;
  readonly migration: boolean;
  readonly stateChanges?: readonly {
    readonly contract_id?: PbEntityId;
    readonly storage_changes: readonly PbStorageChange[];
  }[];
  readonly actions?: readonly PbContractAction[];
  readonly bytecode?: {
    readonly contract_id?: PbEntityId;
    readonly initcode?: Uint8Array;
    readonly runtime_bytecode?: Uint8Array;
  };
}

export interface ParsedSidecarFile {
  /** SHA-384 of the decompressed bytes. */
  readonly hash: Uint8Array;
  readonly size: number;
  readonly records: readonly SidecarRecord[];
}

interface PlainSidecarRecord {
  consensus_timestamp?: unknown;
  migration?: boolean;
  state_changes?: { contract_state_changes: SidecarRecord['stateChanges'] };
  actions?: { contract_actions: SidecarRecord['actions'] };
  bytecode?: SidecarRecord['bytecode'];
}

export function parseSidecarFile(downloaded: Uint8Array): ParsedSidecarFile {
  const bytes = unzipped(downloaded);
  let plain: { sidecar_records?: PlainSidecarRecord[] };
  try {
    plain = toPlain(hapi().SidecarFile.decode(bytes)) as typeof plain;
  } catch (error) {
    throw new FormatError(`not a SidecarFile: ${(error as Error).message}`);
  }
  const records = (plain.sidecar_records ?? []).map(
    (r): SidecarRecord => ({
      consensusTimestamp: timestampNanos(r.consensus_timestamp),
      migration: r.migration ?? false,
      ...(r.state_changes ? { stateChanges: r.state_changes.contract_state_changes ?? [] } : {}),
      ...(r.actions ? { actions: r.actions.contract_actions ?? [] } : {}),
      ...(r.bytecode ? { bytecode: r.bytecode } : {}),
    }),
  );
  return { hash: sha384(bytes), size: downloaded.length, records };
}
