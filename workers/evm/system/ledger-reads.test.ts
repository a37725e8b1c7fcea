import { describe, expect, it } from 'vitest';
import { countingClient, TESTNET_SETTINGS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { latest, past, seedTokenLedger } from '../../../test/harness/factories-evm-system.ts';
import { createLatestCaches } from '../latest-cache.ts';
import { SessionLedger } from '../ledger-reader.ts';
import { ledgerReads } from './ledger-reads.ts';

const ledger = useEvmLedger(seedTokenLedger);

describe('the fee files a priced system write reads', () => {
  it('reads the exchange rate and the fee schedule of a block in one statement', async () => {
    const counting = countingClient(ledger.db);
    const reads = ledgerReads(new SessionLedger(counting, past, TESTNET_SETTINGS));
    await reads.exchangeRate();
    await reads.feeSchedule();
    expect(counting.statements).toBe(1);
  });

  it('shares them at latest between the sessions of an isolate', async () => {
    const caches = createLatestCaches();
    const [first, second] = [countingClient(ledger.db), countingClient(ledger.db)];
    await ledgerReads(new SessionLedger(first, latest, TESTNET_SETTINGS, caches)).feeSchedule();
    await ledgerReads(new SessionLedger(second, latest, TESTNET_SETTINGS, caches)).exchangeRate();
    expect(first.statements).toBe(1);
    expect(second.statements).toBe(0);
  });
});
