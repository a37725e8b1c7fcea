import type { Database } from '../../../db/client.ts';
import { committedValue } from '../../../db/queries/committed-end.ts';
import { type SystemFileRow, systemFilesAt } from '../../../db/queries/network-files.ts';
import { type Decoded, decodeMessage, type MessageDef, ProtobufError } from '../../format/protobuf-strict.ts';
import type { Bound } from '../../params/java/bound.ts';

/** How many versions of a file are tried, newest first, before the file counts as not found. */
const MAX_ATTEMPTS = 10;

export interface SystemFileRequest {
  /** Encoded file id. */
  id: bigint;
  message: MessageDef;
}

export interface SystemFile {
  /** Consensus timestamp of the version's last write. */
  timestamp: bigint;
  data: Decoded;
}

/**
 * The latest version of each file within the timestamp bound, decoded; undefined for a file with no version there.
 * A version that does not decode (partly written, or corrupt) is skipped for the one before it, as the reference
 * does, up to ten versions in all. The first attempt for every file is one statement.
 */
export async function loadSystemFiles(
  db: Database,
  files: readonly SystemFileRequest[],
  bound: Bound,
): Promise<(SystemFile | undefined)[]> {
  return (await readSystemFiles(db, files, bound)).files;
}

/**
 * `loadSystemFiles`, with the newest committed consensus end its first statement saw (`COMMITTED_END`): a bound at
 * or below it holds every write the files will ever have there.
 */
export async function readSystemFiles(
  db: Database,
  files: readonly SystemFileRequest[],
  bound: Bound,
): Promise<{ files: (SystemFile | undefined)[]; committedEnd: bigint | null }> {
  const first = await systemFilesAt(
    db,
    files.map((file) => file.id),
    bound.lower,
    bound.upper,
  );
  const committedEnd = committedValue(first[0]?.committed_end);
  const loaded = await Promise.all(
    files.map(async (file, i) => {
      let row: SystemFileRow | undefined = first[i];
      for (let attempt = 1; ; attempt++) {
        if (!row || row.consensus_timestamp === null || row.file_data === null) return undefined;
        const timestamp = BigInt(row.consensus_timestamp);
        try {
          return { timestamp, data: decodeMessage(row.file_data, file.message) };
        } catch (error) {
          if (!(error instanceof ProtobufError) || attempt >= MAX_ATTEMPTS) return undefined;
        }
        [row] = await systemFilesAt(db, [file.id], bound.lower, timestamp - 1n);
      }
    }),
  );
  return { files: loaded, committedEnd };
}
