/**
 * Lazy creation in a synthetic CryptoTransfer, as the consensus node's EnsureAliasesStep and AutoAccountCreator do
 * it: an EVM address credited (hbar or a fungible amount above zero, or an NFT received) that names no account gets
 * a hollow account once the checks the node makes before handling the transfer have passed, in the order the node
 * resolves aliases (hbar credits, then each token list's fungible credits and NFT receivers). The account takes the
 * run's next entity number, the address as its alias, no key and unlimited automatic associations
 * (`entities.unlimitedAutoAssociationsEnabled`), so the token it is sent associates on arrival. A credited long-zero
 * or zero address that names no account is an alias too, one no account may have. A failed transfer undoes the
 * creations and gives their numbers back.
 */
import { hexOfBytes } from '../../../db/bytea.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import type { EvmEntity } from '../types.ts';
import type { CryptoTransfer } from './crypto-transfer.ts';
import { entityNumbersOf } from './frames.ts';
import type { HtsCall } from './hts-context.ts';
import { isEntityNumAlias, transferAccount } from './synthetic-ids.ts';
import { fail } from './token-dispatch.ts';

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
 * The credited addresses that name no account (synthetic-ids.ts), in the order the node resolves them: each is
 * credited as an alias.
 */
export async function aliasCredits(call: HtsCall, transfer: CryptoTransfer): Promise<Uint8Array[]> {
  const missing: Uint8Array[] = [];
  for (const address of creditedAddresses(transfer)) {
    if (!(await transferAccount(call, address))) missing.push(address);
  }
  return missing;
}

/**
 * How many of `aliases` the node prices as lazy creations (ClassicTransfersCall.minimumTinycentPriceGiven), whether
 * or not the transfer then succeeds: the EVM addresses. An entity num alias always resolves to an account id
 * (ReadableAccountStoreImpl.lookupAlias), so it is not priced.
 */
export function lazyCreationCount(call: HtsCall, aliases: readonly Uint8Array[]): number {
  return aliases.filter((alias) => !isEntityNumAlias(call, alias)).length;
}

/**
 * What the dispatch makes of a credit to a long-zero address that names no account, and of the zero address:
 * `alias`, the credit conversion of transfers (SyntheticIds.convertCredit), whose account creation the node refuses
 * with INVALID_ALIAS_KEY (CryptoCreateHandler: never an entity num alias); `number`, the debit conversion airdrops
 * use for their receivers, which names an account that does not exist, INVALID_ACCOUNT_ID once resolved.
 */
export type MissingLongZero = 'alias' | 'number';

/**
 * Creates the hollow accounts of `aliases` (from `aliasCredits`), in order, in the run's token ledger; an entity num
 * alias fails the dispatch with INVALID_ALIAS_KEY, or for `number` is left to fail as an account that does not exist.
 */
export async function createHollowAccounts(
  call: HtsCall,
  aliases: readonly Uint8Array[],
  missingLongZero: MissingLongZero,
): Promise<void> {
  const { shard, realm } = call.reader.settings;
  for (const address of aliases) {
    if (isEntityNumAlias(call, address)) {
      if (missingLongZero === 'alias') fail('INVALID_ALIAS_KEY');
      continue;
    }
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
