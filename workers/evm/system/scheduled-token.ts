/**
 * The token a scheduled TokenCreate would create, read from the schedule's SchedulableTransactionBody as the
 * consensus node's TokenTupleUtils reads the TokenCreateTransactionBody: its initial supply as the total supply,
 * not deleted, not paused, KYC not granted by default, the expiry and keys as given.
 */
import { fields, int64 } from '../../format/protobuf-reader.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import { createdTokenFields, type TokenState } from './token-state.ts';

type FeeJson = Record<string, unknown>;

/** SchedulableTransactionBody.tokenCreation. */
const TOKEN_CREATION = 22;
const NON_FUNGIBLE_UNIQUE = 1n;
const FINITE = 1n;

export interface ScheduledToken {
  readonly token: TokenState;
  /** TokenCreateTransactionBody.metadata. */
  readonly metadata: Uint8Array;
}

const messages = (bytes: Uint8Array, number: number): Uint8Array[] =>
  [...fields(bytes)].flatMap((field) => ('bytes' in field && field.number === number ? [field.bytes] : []));
const message = (bytes: Uint8Array, number: number): Uint8Array | undefined => messages(bytes, number).at(-1);

function varintOf(bytes: Uint8Array | undefined, number: number): bigint {
  let value = 0n;
  if (!bytes) return value;
  for (const field of fields(bytes)) if ('varint' in field && field.number === number) value = field.varint;
  return value;
}

/** An AccountID or TokenID message (shard 1, realm 2, num 3) as an encoded id; undefined when absent. */
function idOf(bytes: Uint8Array | undefined): bigint | undefined {
  if (!bytes) return undefined;
  return encodeEntityId({ shard: varintOf(bytes, 1), realm: varintOf(bytes, 2), num: varintOf(bytes, 3) });
}

const idText = (bytes: Uint8Array | undefined): string | null => {
  const id = idOf(bytes);
  return id === undefined ? null : String(id);
};

function fixedFeeJson(fixed: Uint8Array, collector: string | null): FeeJson {
  return {
    amount: String(int64(varintOf(fixed, 1))),
    denominating_token_id: idText(message(fixed, 2)),
    collector_account_id: collector,
  };
}

/** CustomFee messages as the mirror's custom_fee JSON lists. */
function feesOf(body: Uint8Array): Pick<TokenState, 'fixedFees' | 'fractionalFees' | 'royaltyFees'> {
  const fixedFees: FeeJson[] = [];
  const fractionalFees: FeeJson[] = [];
  const royaltyFees: FeeJson[] = [];
  for (const fee of messages(body, 21)) {
    const collector = idText(message(fee, 3));
    const fixed = message(fee, 1);
    const fractional = message(fee, 2);
    const royalty = message(fee, 4);
    if (fixed) fixedFees.push(fixedFeeJson(fixed, collector));
    if (fractional) {
      const fraction = message(fractional, 1);
      fractionalFees.push({
        numerator: String(int64(varintOf(fraction, 1))),
        denominator: String(int64(varintOf(fraction, 2))),
        minimum_amount: String(int64(varintOf(fractional, 2))),
        maximum_amount: String(int64(varintOf(fractional, 3))),
        net_of_transfers: varintOf(fractional, 4) === 1n,
        collector_account_id: collector,
      });
    }
    if (royalty) {
      const fraction = message(royalty, 1);
      const fallback = message(royalty, 2);
      royaltyFees.push({
        numerator: String(int64(varintOf(fraction, 1))),
        denominator: String(int64(varintOf(fraction, 2))),
        ...(fallback ? { fallback_fee: fixedFeeJson(fallback, null) } : {}),
        collector_account_id: collector,
      });
    }
  }
  return { fixedFees, fractionalFees, royaltyFees };
}

/** The scheduled TokenCreate of a SchedulableTransactionBody; undefined when it schedules something else. */
export function scheduledToken(schedulable: Uint8Array): ScheduledToken | undefined {
  let body: Uint8Array | undefined;
  try {
    body = message(schedulable, TOKEN_CREATION);
    if (!body) return undefined;
    const text = (number: number) => new TextDecoder().decode(message(body as Uint8Array, number) ?? new Uint8Array());
    // admin 6, KYC 7, freeze 8, wipe 9, supply 10, fee schedule 20, pause 22: TokenState.keyBytes' order.
    const keyBytes = [6, 7, 8, 9, 10, 20, 22].map((number) => message(body as Uint8Array, number));
    const renewAccount = idOf(message(body, 14));
    const token: TokenState = {
      id: 0n,
      fungible: varintOf(body, 17) !== NON_FUNGIBLE_UNIQUE,
      name: text(1),
      symbol: text(2),
      memo: text(16),
      decimals: varintOf(body, 3),
      totalSupply: varintOf(body, 4),
      maxSupply: int64(varintOf(body, 19)),
      finiteSupply: varintOf(body, 18) === FINITE,
      treasury: idOf(message(body, 5)) ?? 0n,
      freezeDefault: varintOf(body, 11) === 1n,
      ...createdTokenFields(keyBytes),
      expirySeconds: int64(varintOf(message(body, 13), 1)),
      autoRenewAccount: renewAccount === 0n ? undefined : renewAccount,
      autoRenewSeconds: int64(varintOf(message(body, 15), 1)),
      ...feesOf(body),
    };
    return { token, metadata: message(body, 23) ?? new Uint8Array() };
  } catch {
    return undefined;
  }
}
