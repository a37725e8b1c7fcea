// The conformance runner's `--hook`: before a case's requests, hand the case's settings (over the kit's baseline)
// and its fake clock to the Worker under test, which also drops everything it cached for the previous case.
// Plain JavaScript with no imports, because the runner starts it once per case (and per request under a fake clock).
// Env from the runner: CONFORMANCE_CONFIG, CONFORMANCE_FAKE_TIME; from our harness: EDGE_MIRROR_TEST_BASE,
// EDGE_MIRROR_BASELINE_CONFIG (path of the kit's baseline-config.json).
import { readFileSync } from 'node:fs';

const base = process.env.EDGE_MIRROR_TEST_BASE;
const baselinePath = process.env.EDGE_MIRROR_BASELINE_CONFIG;
if (!base || !baselinePath) {
  console.error('hook: EDGE_MIRROR_TEST_BASE and EDGE_MIRROR_BASELINE_CONFIG must be set');
  process.exit(2);
}

const isTree = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const merge = (a, b) => {
  if (!isTree(a) || !isTree(b)) return b === undefined ? a : b;
  const out = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = merge(a[key], value);
  return out;
};

const { _comment, ...baseline } = JSON.parse(readFileSync(baselinePath, 'utf8'));
const config = merge(baseline, JSON.parse(process.env.CONFORMANCE_CONFIG || '{}'));
const res = await fetch(`${base}/__test/state`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ config, fakeTime: process.env.CONFORMANCE_FAKE_TIME ?? '' }),
});
if (res.status !== 204) {
  console.error(`hook: the Worker answered ${res.status} to /__test/state`);
  process.exit(1);
}
