/**
 * The conformance runner's `--hook`: before a case's requests, hand the case's settings (over the kit's baseline)
 * and its fake clock to the Worker under test, which also drops anything it derived from the previous case's data.
 * Env from the runner: CONFORMANCE_CONFIG, CONFORMANCE_FAKE_TIME; from our harness: EDGE_MIRROR_TEST_BASE,
 * EDGE_MIRROR_BASELINE_CONFIG (path of the kit's baseline-config.json).
 */
import { readFileSync } from 'node:fs';
import { mergeConfig } from '../../workers/config/config.ts';

const base = process.env.EDGE_MIRROR_TEST_BASE;
const baselinePath = process.env.EDGE_MIRROR_BASELINE_CONFIG;
if (!base || !baselinePath) {
  console.error('hook: EDGE_MIRROR_TEST_BASE and EDGE_MIRROR_BASELINE_CONFIG must be set');
  process.exit(2);
}
const baseline = JSON.parse(readFileSync(baselinePath, 'utf8')) as Record<string, unknown>;
delete baseline._comment;
const caseConfig = JSON.parse(process.env.CONFORMANCE_CONFIG || '{}') as unknown;
const res = await fetch(`${base}/__test/state`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    config: mergeConfig(baseline, caseConfig),
    fakeTime: process.env.CONFORMANCE_FAKE_TIME ?? '',
  }),
});
if (res.status !== 204) {
  console.error(`hook: the Worker answered ${res.status} to /__test/state`);
  process.exit(1);
}
