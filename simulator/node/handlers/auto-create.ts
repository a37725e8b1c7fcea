/**
 * Accounts a transfer creates, as the consensus node's AutoAccountCreator does: a credit of hbar or tokens to an
 * alias no account has yet makes one. A key alias (a serialized ED25519 or ECDSA key, HIP-32) makes an account with
 * that key; an EVM address (HIP-583) makes a hollow account, whose key stays an empty key list until the account signs
 * with the ECDSA key behind the address. Either gets unlimited automatic token associations and is recorded as a
 * CryptoCreate child preceding the transfer (nonce 1, 2…, one nanosecond apart, ending just before it). A hollow
 * account that pays for a transaction, or whose signature the transaction needs, signed by that ECDSA key is
 * completed with it (`hollowCompletion`).
 */
import { accountPb, i64 } from '../../ledger/ids.ts';
import type { Account, Ledger, LedgerKey, SimKey } from '../../ledger/ledger.ts';
import { keyPb } from '../../network/keys.ts';
import type { ExecuteContext, Network, SimItem } from '../../network/network.ts';
import { accountNumOf, aliasOf } from '../entity-ids.ts';
import { DEFAULT_AUTO_RENEW_SECONDS, ensure, Failed } from '../handling.ts';
import { DECODE_OPTIONS, nodeTypes } from '../node-proto.ts';
import { keyFromPb, type Signatures } from '../signatures.ts';
import { liveAccount } from './lookups.ts';

interface Creation {
  readonly account: Account;
  readonly alias: Uint8Array;
  readonly hollow: boolean;
}

/** A hollow account's key: an empty key list, its own object (the node tells required hollow accounts apart by it). */
const emptyKey = (): LedgerKey => ({ kind: 'list', keys: [] });

/** The single key a key alias serializes; anything else is not an alias the node accepts. */
function aliasKey(alias: Uint8Array): LedgerKey {
  let key: LedgerKey | undefined;
  try {
    const types = nodeTypes();
    key = keyFromPb(types.Key.toObject(types.Key.decode(alias), DECODE_OPTIONS));
  } catch {
    throw new Failed('INVALID_ALIAS_KEY');
  }
  ensure(key && (key.kind === 'ed25519' || key.kind === 'secp256k1'), 'INVALID_ALIAS_KEY');
  return key;
}

/**
 * The ECDSA key that completes a hollow account: one the signature map names, whose EVM address is the account's and
 * whose signature verifies. Undefined for an account that is not hollow or a map without that key.
 */
export function hollowCompletion(account: Account, signatures: Signatures): SimKey | undefined {
  const hollow = account.key?.kind === 'list' && account.key.keys.length === 0 && account.evmAddress !== undefined;
  if (!hollow || !account.evmAddress) return undefined;
  const address = Buffer.from(account.evmAddress);
  return signatures
    .namedKeys()
    .find((key) => key.evmAddress !== undefined && address.equals(key.evmAddress) && signatures.signedBy(key));
}

/** Whether an AccountID names an account by an alias the ledger does not know (a transfer to it creates one). */
export function isNewAlias(ledger: Ledger, id: unknown): boolean {
  return aliasOf(id) !== undefined && accountNumOf(ledger, id) < 0n;
}

/** The accounts one transaction creates; their numbers are the next ones the ledger hands out, in order. */
export class AutoCreator {
  private readonly ledger: Ledger;
  private readonly planned = new Map<string, Creation>();

  constructor(ledger: Ledger) {
    this.ledger = ledger;
  }

  get count(): number {
    return this.planned.size;
  }

  /**
   * The live account an AccountID names; a new alias that is credited gets an account (made by `create`), a new
   * alias that is debited names nothing.
   */
  resolve(id: unknown, credited: boolean): Account {
    const alias = aliasOf(id);
    if (!alias || !isNewAlias(this.ledger, id)) return liveAccount(this.ledger, id);
    ensure(credited, 'INVALID_ACCOUNT_ID');
    const hex = Buffer.from(alias).toString('hex');
    const known = this.planned.get(hex);
    if (known) return known.account;
    const hollow = alias.length === 20;
    const key = hollow ? emptyKey() : aliasKey(alias);
    const evmAddress = hollow ? new Uint8Array(alias) : key.kind === 'secp256k1' ? key.evmAddress : undefined;
    if (evmAddress) ensure(this.ledger.entityOfAddress(evmAddress) === undefined, 'INVALID_ALIAS_KEY');
    const account: Account = {
      num: this.ledger.nextEntityNumber + BigInt(this.planned.size),
      balance: 0n,
      genesisBalance: 0n,
      key,
      memo: hollow ? 'lazy-created account' : 'auto-created account',
      deleted: false,
      evmAddress,
      maxAutoAssociations: -1,
      tokens: new Set(),
      ethereumNonce: 0n,
    };
    this.planned.set(hex, { account, alias: new Uint8Array(alias), hollow });
    return account;
  }

  /** Makes the planned accounts in the model (before the transfer that credits them). */
  create(consensusNs: bigint): void {
    for (const { account, alias, hollow } of this.planned.values()) {
      const num = this.ledger.allocateEntity();
      if (num !== account.num) throw new Error(`auto-create: expected 0.0.${account.num}, got 0.0.${num}`);
      const created = this.ledger.createAccount(
        num,
        account.key ?? emptyKey(),
        {
          memo: account.memo,
          evmAddress: account.evmAddress,
          maxAutoAssociations: -1,
          ...(hollow ? {} : { keyAlias: alias }),
        },
        false,
      );
      created.autoRenewSeconds = DEFAULT_AUTO_RENEW_SECONDS;
      created.expirationNs = consensusNs + DEFAULT_AUTO_RENEW_SECONDS * 1_000_000_000n;
    }
  }

  /** The child records written, in consensus order. */
  readonly children: SimItem[] = [];

  /** The CryptoCreate children the node records before the transfer, paid by its payer and free. */
  async writeChildren(net: Network, parent: ExecuteContext, payer: bigint): Promise<void> {
    const creations = [...this.planned.values()];
    for (const [i, { account, alias, hollow }] of creations.entries()) {
      const child = await net.submit({
        payer,
        transactionId: { ...parent.transactionId, nonce: i + 1 },
        consensusNs: parent.consensusNs - BigInt(creations.length - i),
        body: {
          cryptoCreateAccount: {
            key: keyPb(account.key ?? emptyKey()),
            initialBalance: 0,
            autoRenewPeriod: { seconds: i64(DEFAULT_AUTO_RENEW_SECONDS) },
            memo: account.memo,
            alias,
            max_automatic_token_associations: -1,
          },
        },
        price: undefined,
        execute: () => ({
          receipt: { accountID: accountPb(account.num) },
          record: {
            ...(hollow ? {} : { alias }),
            ...(account.evmAddress ? { evm_address: account.evmAddress } : {}),
          },
        }),
      });
      this.children.push(child);
    }
  }
}
