/** The conformance kit's cases (test/data/conformance/cases) as tests read them. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sharedDir } from './shared-dir.ts';

/** One request of a case: its URL, and the status and body edge-mirror answers it with. */
export interface KitRequest {
  /** The case file, relative to the cases folder. */
  readonly file: string;
  readonly url: string;
  readonly status: number;
  readonly json: unknown;
}

/** Every request of every case, case files in name order. */
export function conformanceRequests(): KitRequest[] {
  const casesDir = path.join(sharedDir(), 'conformance/cases');
  return readdirSync(casesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const { requests } = JSON.parse(readFileSync(path.join(casesDir, file), 'utf8')) as {
        requests: Omit<KitRequest, 'file'>[];
      };
      return requests.map((request) => ({ file, ...request }));
    });
}
