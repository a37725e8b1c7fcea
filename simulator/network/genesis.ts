/**
 * The genesis operator: account 0.0.2 holds the local node's well-known genesis key, as on the Hiero local node and
 * Solo, so an SDK client set up for a local network signs as 0.0.2 with it. A test key, public by design.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { FIRST_USER_ENTITY, TREASURY } from '../ledger/ids.ts';
import type { Ledger, SimKey } from '../ledger/ledger.ts';

/** The DER (PKCS#8) form every local-network guide prints. */
export const GENESIS_PRIVATE_KEY_DER =
  '302e020100300506032b65700422042091132178e72057a1d7528025956fe39b0b847f200ab59b2fdd367017f3087137';

/** The 32-byte ed25519 seed inside the DER. */
export const GENESIS_PRIVATE_KEY = new Uint8Array(Buffer.from(GENESIS_PRIVATE_KEY_DER.slice(-64), 'hex'));

export function genesisKey(): SimKey {
  return { kind: 'ed25519', publicKey: ed25519.getPublicKey(GENESIS_PRIVATE_KEY) };
}

/**
 * Gives the accounts a network starts with (0.0.2, the node accounts, 0.0.98, 0.0.800 and 0.0.801) the genesis key,
 * as a local node's system accounts hold it: their info answers a key, and 0.0.2 signs with it. A system account a
 * client gave another key (a continued run's) keeps it; 0.0.2 always gets the genesis key back.
 */
export function keyGenesisAccounts(ledger: Ledger): void {
  const key = genesisKey();
  for (const account of ledger.accounts.values()) {
    const system = account.num < FIRST_USER_ENTITY;
    if (account.num === TREASURY || (system && !account.key)) account.key = key;
  }
}
