/**
 * The Mesh Go SDK's request checks (its `asserter` package) that the reference's server runs before its services,
 * with their messages word for word; each refusal is a code-0 error (`RosettaError.request`). The reference builds
 * its asserter with historical balance lookup on, no call methods and no mempool coins (rosetta/main.go).
 */
import { RosettaError } from '../errors.ts';
import { printStruct } from '../go-json/print-struct.ts';
import type { RosettaSettings } from '../settings.ts';
import {
  type AccountIdentifier,
  accountIdentifierSchema,
  type BlockIdentifier,
  blockIdentifierSchema,
  type Currency,
  currencySchema,
  type NetworkIdentifier,
  networkIdentifierSchema,
  type PartialBlockIdentifier,
  type TransactionIdentifier,
} from './schemas.ts';

const refuse = (message: string): never => {
  throw RosettaError.request(message);
};

/** The one network identifier the server serves (rosetta/main.go): `Hedera`, the network, its shard and realm. */
export function servedNetwork(settings: RosettaSettings): NetworkIdentifier {
  return {
    blockchain: 'Hedera',
    network: settings.network,
    ...(settings.subNetworkIdentifier
      ? { sub_network_identifier: { network: `shard ${settings.shard} realm ${settings.realm}` } }
      : {}),
  };
}

function networkProblem(network: NetworkIdentifier | undefined): string | undefined {
  if (!network) return 'NetworkIdentifier is nil';
  if (network.blockchain === '') return 'NetworkIdentifier.Blockchain is missing';
  if (network.network === '') return 'NetworkIdentifier.Network is missing';
  if (network.sub_network_identifier && network.sub_network_identifier.network === '') {
    return 'NetworkIdentifier.SubNetworkIdentifier.Network is missing';
  }
  return undefined;
}

/** `ValidSupportedNetwork`: a well-formed identifier equal to the served one (sub-network and its metadata too). */
export function assertNetwork(requested: NetworkIdentifier | undefined, settings: RosettaSettings): void {
  const shown = printStruct(networkIdentifierSchema, requested);
  const problem = networkProblem(requested);
  if (problem) refuse(`network identifier ${shown} is invalid: ${problem}`);
  // The SDK compares the two identifiers' JSON (empty metadata omitted), which is what `shown` is.
  if (shown !== printStruct(networkIdentifierSchema, servedNetwork(settings))) {
    refuse(`network identifier ${shown} is not supported: requestNetwork is not supported`);
  }
}

/** `PartialBlockIdentifier`: its messages are returned as they are. */
export function assertPartialBlockIdentifier(block: PartialBlockIdentifier | undefined): void {
  if (!block) refuse('PartialBlockIdentifier is nil');
  else if (block.hash === '') refuse('PartialBlockIdentifier hash is empty');
  else if (block.index !== undefined && block.index < 0n) refuse('PartialBlockIdentifier index is negative');
}

/** `BlockIdentifier`, as `BlockTransactionRequest` wraps it. */
export function assertBlockIdentifier(block: BlockIdentifier | undefined): void {
  const problem = !block
    ? 'BlockIdentifier is nil'
    : block.hash === ''
      ? 'BlockIdentifier.Hash is missing'
      : block.index < 0n
        ? 'BlockIdentifier.Index is negative'
        : undefined;
  if (problem) refuse(`block identifier ${printStruct(blockIdentifierSchema, block)} is invalid: ${problem}`);
}

export function assertTransactionIdentifier(transaction: TransactionIdentifier | undefined): void {
  if (!transaction) refuse('TransactionIdentifier is nil');
  else if (transaction.hash === '') refuse('TransactionIdentifier.Hash is missing');
}

/** `AccountIdentifier`, as the account requests wrap it. */
export function assertAccountIdentifier(account: AccountIdentifier | undefined): void {
  const problem = !account
    ? 'Account is nil'
    : account.address === ''
      ? 'Account.Address is missing'
      : account.sub_account && account.sub_account.address === ''
        ? 'Account.SubAccount.Address is missing'
        : undefined;
  if (problem) refuse(`account identifier ${printStruct(accountIdentifierSchema, account)} is invalid: ${problem}`);
}

/**
 * `ContainsDuplicateCurrency`: the second of two equal currencies (compared by their JSON), with the reason the
 * request's check gives (`duplicate currency`, or `currency is used multiple times` for all-balances).
 */
export function assertDistinctCurrencies(currencies: readonly (Currency | undefined)[] | undefined, reason: string) {
  const seen = new Set<string>();
  for (const currency of currencies ?? []) {
    const key = printStruct(currencySchema, currency);
    if (seen.has(key)) refuse(`currency ${key} is invalid: ${reason}`);
    seen.add(key);
  }
}
