/**
 * Lazy creation in a synthetic CryptoTransfer, as the consensus node's EnsureAliasesStep and AutoAccountCreator do
 * it: an EVM address credited (hbar or a fungible amount above zero, or an NFT received) that names no account gets
 * a hollow account before anything else of the transfer is checked, in the order the node resolves aliases (hbar
 * credits, then each token list's fungible credits and NFT receivers). The account takes the run's next entity
 * number, the address as its alias, no key and unlimited automatic associations (`entities.unlimitedAutoAssociations
 * Enabled`), so the token it is sent associates on arrival. A failed transfer undoes the creation and gives the
 * number back.
 */
import { hexOfBytes } from '../../../db/bytea.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import { entityIdOfLongZero } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import type { CryptoTransfer } from './crypto-transfer.ts';
import { entityNumbersOf } from './frames.ts';
import { accountAt, type HtsCall } from './hts-context.ts';

/** `THREE_MONTHS_IN_SECONDS`: the auto-renew period of an automatically created account. */
const AUTO_RENEW_SECONDS = 7_776_000n;
const UNLIMITED_AUTO_ASSOCIATIONS = -1;

/** The addresses the transfer credits, in the order the node resolves them, each once. */
function creditedAddresses(transfer: CryptoTransfer): Uint8Array[] {
  const credited = new Map<string, Uint8Array>();
  const note = (address: Uint8Array) => {
    const key = hexOfBytes(address);
    if (!credited.has(key)) credited.set(key, address);
  };
  for (const adjust of transfer.hbar) if (adjust.amount > 0n) note(adjust.account);
  for (const list of transfer.tokens) {
    for (const adjust of list.adjusts) if (adjust.amount > 0n) note(adjust.account);
    for (const nft of list.nfts) note(nft.to);
  }
  return [...credited.values()];
}

/**
 * The credited addresses that name no account: each is an alias the node prices a lazy creation for
 * (ClassicTransfersCall.minimumTinycentPriceGiven), whether or not the transfer then succeeds.
 */
export async function uncreditableAddresses(call: HtsCall, transfer: CryptoTransfer): Promise<Uint8Array[]> {
  const missing: Uint8Array[] = [];
  for (const address of creditedAddresses(transfer)) {
    if (!(await accountAt(call, address))) missing.push(address);
  }
  return missing;
}

/**
 * Whether the node creates an account for a missing credited address: an EVM address, not a long-zero one (those
 * number an account, and a missing one fails the transfer with INVALID_ACCOUNT_ID).
 */
function creatable(call: HtsCall, address: Uint8Array): boolean {
  const { shard, realm } = call.reader.settings;
  return entityIdOfLongZero(address, shard, realm) === undefined && address.some((byte) => byte !== 0);
}

/** Creates the hollow accounts of `missing` (from `uncreditableAddresses`), in order, in the run's token ledger. */
export async function createHollowAccounts(call: HtsCall, missing: readonly Uint8Array[]): Promise<void> {
  const { shard, realm } = call.reader.settings;
  for (const address of missing) {
    if (!creatable(call, address)) continue;
    const num = (await entityNumbersOf(call.evm)).use();
    const account: EvmEntity = {
      id: encodeEntityId({ shard, realm, num }),
      type: 'ACCOUNT',
      evmAddress: address,
      alias: address,
      key: undefined,
      deleted: false,
      balance: 0n,
      ethereumNonce: 0n,
      createdTimestamp: call.reader.block.consensusStart,
      expirationTimestamp: call.reader.block.consensusStart + AUTO_RENEW_SECONDS * 1_000_000_000n,
      autoRenewPeriod: AUTO_RENEW_SECONDS,
      autoRenewAccountId: undefined,
      maxAutomaticTokenAssociations: UNLIMITED_AUTO_ASSOCIATIONS,
      receiverSigRequired: false,
      memo: '',
      delegationAddress: undefined,
    };
    call.tokens.putCreatedAccount(account, hexOfBytes(address));
  }
}
