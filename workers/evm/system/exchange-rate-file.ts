/**
 * The exchange rate in force at a block: file 0.0.112's latest version by then, its current rate, or its next rate
 * once the current one has expired.
 */
import type { Decoded } from '../../format/protobuf-strict.ts';
import { systemFileId } from '../../routes/network/common.ts';
import { EXCHANGE_RATE_SET } from '../../routes/network/system-file-schemas.ts';
import type { SystemFile, SystemFileRequest } from '../../routes/network/system-files.ts';
import type { BlockContext, LedgerReader } from '../types.ts';

export interface ExchangeRate {
  readonly hbarEquiv: bigint;
  readonly centEquiv: bigint;
}

const EXCHANGE_RATE_FILE = 112;
const NS_PER_SECOND = 1_000_000_000n;

/** The rate of a ledger whose file 0.0.112 was never written: the consensus node's genesis rate, 1 ℏ = 12 ¢. */
const GENESIS_RATE: ExchangeRate = { hbarEquiv: 1n, centEquiv: 12n };

function rateOf(rate: Decoded | undefined): ExchangeRate | undefined {
  const hbarEquiv = rate?.hbarEquiv;
  const centEquiv = rate?.centEquiv;
  if (typeof hbarEquiv !== 'number' || typeof centEquiv !== 'number' || hbarEquiv <= 0 || centEquiv <= 0) {
    return undefined;
  }
  return { hbarEquiv: BigInt(hbarEquiv), centEquiv: BigInt(centEquiv) };
}

/** The request for file 0.0.112 on the reader's network (ledger-reads.ts loads it with 0.0.111). */
export const exchangeRateFile = ({ settings }: LedgerReader): SystemFileRequest => ({
  id: systemFileId({ shard: Number(settings.shard), realm: Number(settings.realm) }, EXCHANGE_RATE_FILE),
  message: EXCHANGE_RATE_SET,
});

/** The rate in force at `block`, from the file's latest version by then (none: the genesis rate). */
export function exchangeRateOf(file: SystemFile | undefined, block: BlockContext): ExchangeRate {
  if (!file) return GENESIS_RATE;
  const current = file.data.currentRate as Decoded | undefined;
  const expiry = (current?.expirationTime as Decoded | undefined)?.seconds;
  const expired = typeof expiry === 'bigint' && block.consensusStart / NS_PER_SECOND >= expiry;
  return (expired ? rateOf(file.data.nextRate as Decoded | undefined) : undefined) ?? rateOf(current) ?? GENESIS_RATE;
}
