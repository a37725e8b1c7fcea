/** The entities a submitted transaction names, looked up as a node does: missing or deleted ones fail with its codes. */
import type { Account, Contract, Ledger, LedgerKey, Token, Topic } from '../../ledger/ledger.ts';
import { accountNumOf, contractNumOf, numOf } from '../entity-ids.ts';
import { ensure, Failed } from '../handling.ts';

export function liveAccount(ledger: Ledger, id: unknown, missing = 'INVALID_ACCOUNT_ID'): Account {
  const num = accountNumOf(ledger, id);
  const account = num > 0n ? ledger.accounts.get(num) : undefined;
  if (!account) {
    // A contract id where an account is expected still names an entity with a balance.
    throw new Failed(missing);
  }
  ensure(!account.deleted, 'ACCOUNT_DELETED');
  return account;
}

/**
 * An account the node's account store holds, which on the node includes contracts: a contract is an account whose
 * key is its admin key, or its own contract id (no signature satisfies it) when it has none.
 */
export interface Party {
  readonly num: bigint;
  readonly key: LedgerKey | undefined;
  readonly deleted: boolean;
  readonly contract: boolean;
}

/** The account or contract an AccountID names, deleted or not; undefined when there is none. */
export function partyOf(ledger: Ledger, id: unknown): Party | undefined {
  const num = accountNumOf(ledger, id);
  if (num <= 0n) return undefined;
  const account = ledger.accounts.get(num);
  if (account) return { num, key: account.key, deleted: account.deleted, contract: false };
  const contract = ledger.contracts.get(num);
  if (!contract) return undefined;
  const key: LedgerKey = contract.settings?.adminKey ?? { kind: 'contract', contract: num };
  return { num, key, deleted: contract.settings?.deleted === true, contract: true };
}

/** The live account or contract an AccountID names, with the node's codes for a missing and a deleted one. */
export function liveParty(
  ledger: Ledger,
  id: unknown,
  missing = 'INVALID_ACCOUNT_ID',
  deleted = 'ACCOUNT_DELETED',
): Party {
  const party = partyOf(ledger, id);
  ensure(party, missing);
  ensure(!party.deleted, deleted);
  return party;
}

export function liveToken(ledger: Ledger, id: unknown): Token {
  const num = numOf(id, 'tokenNum');
  ensure(num !== 0n, 'INVALID_TOKEN_ID');
  const token = ledger.tokens.get(num);
  ensure(token, 'INVALID_TOKEN_ID');
  ensure(!token.deleted, 'TOKEN_WAS_DELETED');
  return token;
}

export function liveTopic(ledger: Ledger, id: unknown): Topic {
  const topic = ledger.topics.get(numOf(id, 'topicNum'));
  ensure(topic && !topic.settings?.deleted, 'INVALID_TOPIC_ID');
  return topic;
}

export function liveContract(ledger: Ledger, id: unknown): Contract {
  const contract = ledger.contracts.get(contractNumOf(ledger, id));
  ensure(contract, 'INVALID_CONTRACT_ID');
  ensure(!contract.settings?.deleted, 'CONTRACT_DELETED');
  return contract;
}
