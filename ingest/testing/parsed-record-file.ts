import type { ParsedRecordFile, RawItem } from '../decode/record-file.ts';

/** A v6 record file of services 0.60 holding `items`, with zero hashes: what the derive tests feed the ingest. */
export function parsedRecordFile(
  items: readonly RawItem[],
  overrides: Partial<ParsedRecordFile> = {},
): ParsedRecordFile {
  return {
    name: '2025-01-01T00_00_00.000000000Z.rcd',
    version: 6,
    hapiVersion: { major: 0, minor: 60, patch: 0 },
    previousHash: new Uint8Array(48),
    hash: new Uint8Array(48),
    fileHash: new Uint8Array(48),
    metadataHash: undefined,
    blockNumber: 1n,
    items,
    sidecars: [],
    size: 0,
    ...overrides,
  };
}
