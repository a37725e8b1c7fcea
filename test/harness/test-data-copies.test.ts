import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, upstreamSharedDir } from './shared-dir.ts';
import { COPIES, differences, filesUnder } from './test-data-copies.ts';

const upstream = upstreamSharedDir();
const present = existsSync(upstream);

describe('the test data copied from the shared folder', () => {
  it('is in the repository', () => {
    for (const copy of COPIES) expect(filesUnder(path.join(REPO_ROOT, copy.to)).length, copy.to).toBeGreaterThan(0);
  });

  // Without the shared folder (a clone on its own) there is nothing to compare with: the copies are the data.
  describe.skipIf(!present)(`equals ${upstream} byte for byte (skipped when it does not exist)`, () => {
    for (const copy of COPIES) {
      it(`${copy.to} = ${copy.from} (npm run test-data:refresh copies it again)`, () => {
        expect(differences(copy, upstream)).toEqual([]);
      });
    }
  });
});
