/** Choosing the actors of a transaction from the ledger: payers that can pay, counterparties that exist. */
import type { Account } from '../ledger/ledger.ts';
import type { Network } from '../network/network.ts';

export const HBAR = 100_000_000n;

/** A live user account holding at least `minimum` tinybars (enough for any fee plus what it sends). */
export function payerWith(net: Network, minimum: bigint, except?: bigint): Account | undefined {
  const num = net.ledger.users.find(net.random, (n) => n !== except && net.ledger.account(n).balance >= minimum, 12);
  return num === undefined ? undefined : net.ledger.account(num);
}

/** Any live user account other than `except`. */
export function otherUser(net: Network, except: bigint): Account | undefined {
  const num = net.ledger.users.find(net.random, (n) => n !== except);
  return num === undefined ? undefined : net.ledger.account(num);
}

/** A memo for a fraction of transactions, as wallets and exchanges add them. */
export function maybeMemo(net: Network, probability = 0.3): string {
  return net.random.chance(probability) ? net.random.words(net.random.int(1, 4)) : '';
}
