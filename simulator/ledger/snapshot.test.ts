import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAIN_FILE, type ChainState } from '../chain-state.ts';
import { parseOptions } from '../main.ts';
import { simulate } from '../run.ts';
import { exportLedger } from './export.ts';
import { Ledger } from './ledger.ts';
import { restoreLedger, saveLedger } from './snapshot.ts';

describe('the saved ledger model', () => {
  it('restores to the same model, which saves to the same JSON', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'simulator-snapshot-'));
    try {
      await simulate(parseOptions(['--out', out, '--files', '6', '--tps', '80', '--seed', 'snapshot']));
      const saved = (JSON.parse(readFileSync(path.join(out, CHAIN_FILE), 'utf8')) as ChainState).ledger;
      const restored = restoreLedger(saved, 4);
      expect(JSON.stringify(saveLedger(restored))).toBe(JSON.stringify(saved));
      const fromFile = JSON.parse(readFileSync(path.join(out, 'ledger.json'), 'utf8'));
      expect(JSON.parse(JSON.stringify(exportLedger(restored)))).toEqual(fromFile);
      const withEvmAddress = [...restored.accounts.values()].find((a) => a.evmAddress);
      expect(withEvmAddress).toBeDefined();
      if (withEvmAddress?.evmAddress) {
        expect(restored.entityOfAddress(withEvmAddress.evmAddress)).toBe(withEvmAddress.num);
        expect(() => restored.claimEvmAddress(withEvmAddress.evmAddress as Uint8Array, 99_999n)).toThrow(
          /already belongs to/,
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a second entity with an EVM address or alias another one has', () => {
    const ledger = new Ledger(1);
    const address = new Uint8Array(20).fill(7);
    const key = { kind: 'secp256k1' as const, publicKey: new Uint8Array(33) };
    ledger.createAccount(1001n, key, { memo: '', evmAddress: address, maxAutoAssociations: 0 });
    expect(() => ledger.createAccount(1002n, key, { memo: '', evmAddress: address, maxAutoAssociations: 0 })).toThrow(
      /0x0707.* of 0\.0\.1002 already belongs to 0\.0\.1001/,
    );
    expect(ledger.accounts.has(1002n)).toBe(false);
  });
});
