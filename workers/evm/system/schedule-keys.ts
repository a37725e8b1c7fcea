/**
 * The keys a scheduled transaction needs and the signatories that activate them, as the consensus node's
 * AbstractScheduleHandler decides it. The required keys are the payer's key and the scheduled body's non-payer keys
 * (its handler's preHandle): none for a ContractCall; for a CryptoTransfer each account debited other than through an
 * allowance, each NFT sender likewise, and each credited account that requires a receiver signature; for a
 * TokenCreate the treasury's key, the admin key, the auto-renew account's key and the collector of a fractional fee
 * or of a fee charged in the new token; for a TokenUpdate the token's admin key (unless only its expiry changes),
 * the new admin key and the new treasury's and auto-renew account's keys; for a TokenMint the token's supply key. A signatory is an ED25519 or ECDSA key that is part of a required key and
 * signed, or the numeric ContractID (or DelegatableContractID) key of a contract that authorized: a ContractID key is
 * active only for the former, a DelegatableContractID key for either.
 */
import { hexOfBytes } from '../../../db/bytea.ts';
import { fields } from '../../format/protobuf-reader.ts';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import type { CryptoTransfer } from './crypto-transfer.ts';
import { type AccountSource, accountAt, tokenAt } from './hts-context.ts';
import {
  contractAddress,
  KEY_CONTRACT_ID,
  KEY_DELEGATABLE_CONTRACT_ID,
  KEY_ECDSA_SECP256K1,
  KEY_ED25519,
  KEY_LIST,
  KEY_THRESHOLD,
} from './keys.ts';
import type { ResponseCodeName } from './results.ts';
import type { ScheduledBody } from './scheduled-body.ts';
import type { ScheduledToken } from './scheduled-token.ts';
import type { ScheduledUpdate } from './scheduled-update.ts';
import { contractKeyBytes } from './token-structs.ts';

/** A signatory as a string: a crypto key's Key bytes (`k:`), a contract's ContractID (`c:`) or delegatable (`d:`). */
export type Signatory = string;

/** The signatory a simple Key stands for; undefined for a key list, a threshold key or bytes that are no Key. */
export function signatoryOf(key: Uint8Array): Signatory | undefined {
  try {
    for (const field of fields(key)) {
      if (!('bytes' in field)) continue;
      if (field.number === KEY_ED25519 || field.number === KEY_ECDSA_SECP256K1) return `k:${hexOfBytes(key)}`;
      if (field.number === KEY_CONTRACT_ID) return `c:${hexOfBytes(contractAddress(field.bytes))}`;
      if (field.number === KEY_DELEGATABLE_CONTRACT_ID) return `d:${hexOfBytes(contractAddress(field.bytes))}`;
      return undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The keys of a key list or threshold key and how many of them must be active. */
function listOf(number: number, bytes: Uint8Array): { keys: Uint8Array[]; needed: number } {
  let list = bytes;
  let threshold: number | undefined;
  if (number === KEY_THRESHOLD) {
    for (const part of fields(bytes)) {
      if ('varint' in part && part.number === 1) threshold = Number(part.varint);
      if ('bytes' in part && part.number === 2) list = part.bytes;
    }
  }
  const keys: Uint8Array[] = [];
  for (const part of fields(list)) if ('bytes' in part && part.number === 1) keys.push(part.bytes);
  return { keys, needed: threshold ?? keys.length };
}

/** Whether the signatories activate `key` (the schedule's simple key verifier); an empty key never is. */
export function keyActive(key: Uint8Array, signatories: ReadonlySet<Signatory>): boolean {
  try {
    for (const field of fields(key)) {
      if (!('bytes' in field)) continue;
      if (field.number === KEY_LIST || field.number === KEY_THRESHOLD) {
        const { keys, needed } = listOf(field.number, field.bytes);
        const active = keys.filter((inner) => keyActive(inner, signatories)).length;
        return keys.length > 0 && needed > 0 && active >= needed;
      }
      const signatory = signatoryOf(key);
      if (signatory === undefined) return false;
      if (signatory.startsWith('d:')) return signatories.has(signatory) || signatories.has(`c:${signatory.slice(2)}`);
      return signatories.has(signatory);
    }
  } catch {
    return false;
  }
  return false;
}

/** The crypto keys inside `key` (its own, or those of its lists at any depth). */
function cryptoKeysOf(key: Uint8Array): Signatory[] {
  try {
    for (const field of fields(key)) {
      if (!('bytes' in field)) continue;
      if (field.number === KEY_LIST || field.number === KEY_THRESHOLD) {
        return listOf(field.number, field.bytes).keys.flatMap(cryptoKeysOf);
      }
      const signatory = signatoryOf(key);
      return signatory?.startsWith('k:') ? [signatory] : [];
    }
  } catch {
    return [];
  }
  return [];
}

/**
 * The signatories after a signing (newSignatories): the previous ones, the crypto keys of the required keys that the
 * authorizing keys include, and every ContractID or DelegatableContractID key among the authorizing keys.
 */
export function withNewSignatories(
  previous: ReadonlySet<Signatory>,
  authorizing: ReadonlySet<Signatory>,
  required: readonly Uint8Array[],
): Set<Signatory> {
  const next = new Set(previous);
  for (const key of required) for (const crypto of cryptoKeysOf(key)) if (authorizing.has(crypto)) next.add(crypto);
  for (const signatory of authorizing) if (!signatory.startsWith('k:')) next.add(signatory);
  return next;
}

/** An account's key; a contract without an admin key answers to its own ContractID key; none: an empty key. */
export function accountKey(account: EvmEntity, network: { shard: bigint; realm: bigint }): Uint8Array {
  if (account.key && account.key.length > 0) return account.key;
  if (account.type === 'CONTRACT') return contractKeyBytes(longZeroAddress(account.id), false, network);
  return new Uint8Array();
}

type Keys = Uint8Array[] | ResponseCodeName;

/** CryptoTransferHandler.preHandle's keys: a debited account that does not exist fails with INVALID_ACCOUNT_ID. */
async function transferKeys(source: AccountSource, transfer: CryptoTransfer): Promise<Keys> {
  const { settings } = source.reader;
  const keys: Uint8Array[] = [];
  const debit = async (address: Uint8Array): Promise<boolean> => {
    const account = await accountAt(source, address);
    if (account) keys.push(accountKey(account, settings));
    return account !== undefined;
  };
  const credit = async (address: Uint8Array) => {
    const account = await accountAt(source, address);
    if (account?.receiverSigRequired) keys.push(accountKey(account, settings));
  };
  const adjusts = [...transfer.hbar, ...transfer.tokens.flatMap((list) => list.adjusts)];
  for (const { account, amount, approval } of adjusts) {
    if (amount < 0n && !approval && !(await debit(account))) return 'INVALID_ACCOUNT_ID';
    if (amount > 0n) await credit(account);
  }
  for (const nft of transfer.tokens.flatMap((list) => list.nfts)) {
    if (!nft.approval && !(await debit(nft.from))) return 'INVALID_ACCOUNT_ID';
    await credit(nft.to);
  }
  return keys;
}

/** TokenCreateHandler.preHandle's keys, each missing account with the handler's status. */
async function tokenCreateKeys(source: AccountSource, { token }: ScheduledToken): Promise<Keys> {
  const { settings } = source.reader;
  const keys: Uint8Array[] = [];
  const accountKeyOf = async (id: bigint) => {
    const account = await accountAt(source, longZeroAddress(id));
    return account && accountKey(account, settings);
  };
  const treasury = await accountKeyOf(token.treasury);
  if (!treasury) return 'INVALID_TREASURY_ACCOUNT_FOR_TOKEN';
  keys.push(treasury);
  const admin = token.keyBytes[0];
  if (admin) keys.push(admin);
  if (token.autoRenewAccount !== undefined) {
    const renew = await accountKeyOf(token.autoRenewAccount);
    if (!renew) return 'INVALID_AUTORENEW_ACCOUNT';
    keys.push(renew);
  }
  const inNewToken = (fee: Record<string, unknown> | undefined) => fee?.denominating_token_id === '0';
  const collectors = [
    ...token.fractionalFees,
    ...token.fixedFees.filter(inNewToken),
    ...token.royaltyFees.filter((fee) => inNewToken(fee.fallback_fee as Record<string, unknown> | undefined)),
  ].map((fee) => fee.collector_account_id);
  for (const collector of collectors) {
    const key = typeof collector === 'string' ? await accountKeyOf(BigInt(collector)) : undefined;
    if (!key) return 'INVALID_CUSTOM_FEE_COLLECTOR';
    keys.push(key);
  }
  return keys;
}

/**
 * TokenUpdateHandler.preHandle's keys: the token's admin key unless only the expiry changes (a token without one is
 * immutable), the new admin key, the new treasury's and the auto-renew account's keys.
 */
async function tokenUpdateKeys(source: AccountSource, update: ScheduledUpdate): Promise<Keys> {
  const token = await tokenAt(source, update.token);
  if (!token) return 'INVALID_TOKEN_ID';
  const keys: Uint8Array[] = [];
  if (!update.expiryOnly) {
    const admin = token.keyBytes[0];
    if (!admin) return 'TOKEN_IS_IMMUTABLE';
    keys.push(admin);
  }
  if (update.adminKey) keys.push(update.adminKey);
  for (const [address, missing] of [
    [update.treasury, 'INVALID_ACCOUNT_ID'],
    [update.autoRenewAccount, 'INVALID_AUTORENEW_ACCOUNT'],
  ] as const) {
    if (!address) continue;
    const account = await accountAt(source, address);
    if (!account) return missing;
    keys.push(accountKey(account, source.reader.settings));
  }
  return keys;
}

/**
 * The schedule's required keys (its payer's first), a status when the handler's key lookup fails, or undefined for a
 * scheduled kind whose keys are not modelled here.
 */
export async function requiredKeys(
  source: AccountSource,
  payer: bigint,
  body: ScheduledBody,
): Promise<Keys | undefined> {
  const payerAccount = await accountAt(source, longZeroAddress(payer));
  if (!payerAccount) return 'INVALID_PAYER_ACCOUNT_ID';
  const payerKey = accountKey(payerAccount, source.reader.settings);
  let others: Keys;
  switch (body.kind) {
    case 'CONTRACT_CALL':
      others = [];
      break;
    case 'CRYPTO_TRANSFER':
      others = await transferKeys(source, body.transfer);
      break;
    case 'TOKEN_CREATE':
      others = await tokenCreateKeys(source, body.token);
      break;
    case 'TOKEN_UPDATE':
      others = await tokenUpdateKeys(source, body);
      break;
    case 'TOKEN_MINT': {
      // TokenMintHandler.preHandle: the token's supply key.
      const token = await tokenAt(source, body.token);
      const supply = token?.keyBytes[4];
      others = !token ? 'INVALID_TOKEN_ID' : supply ? [supply] : 'TOKEN_HAS_NO_SUPPLY_KEY';
      break;
    }
    default:
      return undefined;
  }
  return typeof others === 'string' ? others : [payerKey, ...others];
}
