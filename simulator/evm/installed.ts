/** What a run installs in the simulator's EVM from the ledger it starts from (a `--continue` run's saved ledger). */
import { longZeroAddress } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { delegationCode, type InstalledContract } from './evm.ts';

/**
 * Every contract with its code and storage, and every account that delegates or once did with its storage: an
 * account keeps its storage when its delegation is cleared (EIP-7702), and a later delegation runs on it again.
 */
export function installedState(ledger: Ledger): InstalledContract[] {
  const contracts = [...ledger.contracts.values()].map((c) => ({
    address: longZeroAddress(c.num),
    runtime: c.runtime,
    storage: c.storage,
  }));
  const accounts = [...ledger.accounts.values()].flatMap((a) =>
    a.evmAddress && (a.delegation || a.delegatedStorage)
      ? [
          {
            address: a.evmAddress,
            runtime: a.delegation ? delegationCode(a.delegation) : new Uint8Array(),
            storage: a.delegatedStorage ?? new Map<string, string>(),
          },
        ]
      : [],
  );
  return [...contracts, ...accounts];
}
