/** A Mesh `Currency`. */
export interface Currency {
  readonly symbol: string;
  readonly decimals: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The one currency the reference's Rosetta reports (rosetta/app/domain/types/constants.go): hbar in tinybars.
 * Token balances and token transfers are not part of its answers at this version.
 */
export const HBAR: Currency = { symbol: 'HBAR', decimals: 8, metadata: { issuer: 'Hedera' } };

/** A Mesh `Amount` of hbar: tinybars as a decimal string. */
export const hbarAmount = (tinybars: bigint) => ({ value: tinybars.toString(), currency: HBAR });
