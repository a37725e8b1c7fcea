/** The entities a submitted transaction names, looked up as a node does: missing or deleted ones fail with its codes. */
import type { Account, Contract, Ledger, Token, Topic } from '../../ledger/ledger.ts';
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
