import { describe, expect, it } from 'vitest';
import type { ParsedRecordFile } from '../decode/record-file.ts';
import { parsedRecordFile } from '../testing/parsed-record-file.ts';
import { deriveRecordFile } from './record-file.ts';

function recordFileRow(version: number) {
  const file: ParsedRecordFile = parsedRecordFile([], {
    version,
    hapiVersion: { major: 0, minor: version === 2 ? 0 : 58, patch: version === 2 ? 0 : 3 },
  });
  return deriveRecordFile(file, { index: 1n, loadStart: 0n, sidecars: [] }).rows.rows('record_file')[0];
}

describe('the record_file row', () => {
  it('stores the HAPI version as the software version too, from v5 on', () => {
    expect(recordFileRow(6)).toMatchObject({
      hapi_version_major: 0,
      hapi_version_minor: 58,
      hapi_version_patch: 3,
      software_version_major: 0,
      software_version_minor: 58,
      software_version_patch: 3,
    });
  });

  it('stores no version for a v2 file, whose header version the importer does not use', () => {
    expect(recordFileRow(2)).toMatchObject({
      hapi_version_major: null,
      hapi_version_minor: null,
      hapi_version_patch: null,
      software_version_major: null,
      software_version_minor: null,
      software_version_patch: null,
    });
  });
});
