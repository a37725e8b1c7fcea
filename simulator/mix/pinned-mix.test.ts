import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parseOptions } from '../main.ts';
import { simulate } from '../run.ts';
import { readVerifiedOutput } from '../testing/read-output.ts';

const out = mkdtempSync(path.join(tmpdir(), 'pinned-mix-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The bootstrap (accounts, tokens, topics, contracts) comes first whatever the mix; 60 items cover it. */
const BOOTSTRAP_ITEMS = 60;

it('draws only the families a pinned mix names, in its shares, however the default mix is weighted', async () => {
  await simulate({
    ...parseOptions(['--out', out, '--files', '3', '--tps', '200', '--seed', 'pinned']),
    weights: { callContract: 1_000 },
    pinnedMix: { submitMessage: 3, hbarTransfer: 1 },
  });
  const kinds = readVerifiedOutput(out)
    .flatMap((file) => file.items)
    .slice(BOOTSTRAP_ITEMS)
    .map((item) => Object.keys(item.body).find((key) => key === 'consensusSubmitMessage' || key === 'cryptoTransfer'));
  const messages = kinds.filter((kind) => kind === 'consensusSubmitMessage').length;
  expect(kinds.length).toBeGreaterThan(900);
  expect(kinds.filter((kind) => kind === undefined)).toEqual([]);
  expect(messages / kinds.length).toBeGreaterThan(0.7);
  expect(messages / kinds.length).toBeLessThan(0.8);
});
