/**
 * The exchange rate system contract at 0x168: `tinycentsToTinybars(uint256)` and `tinybarsToTinycents(uint256)` at
 * the rate of file 0.0.112 in force at the block (its current rate, or its next rate once the current one has
 * expired). Any other input halts, as on the consensus node.
 */
import type { PrecompileFunc } from '@ethereumjs/evm';
import type { Decoded } from '../../format/protobuf-strict.ts';
import { systemFileId } from '../../routes/network/common.ts';
import { EXCHANGE_RATE_SET } from '../../routes/network/system-file-schemas.ts';
import { loadSystemFiles } from '../../routes/network/system-files.ts';
import type { LedgerReader } from '../types.ts';
import { encode, int, leadingSelector, selectorOf } from './abi.ts';
import { EXCHANGE_RATE_GAS, halt, success } from './results.ts';

export interface ExchangeRate {
  readonly hbarEquiv: bigint;
  readonly centEquiv: bigint;
}

const EXCHANGE_RATE_FILE = 112;
const NS_PER_SECOND = 1_000_000_000n;
const TO_TINYBARS = selectorOf('tinycentsToTinybars(uint256)');
const TO_TINYCENTS = selectorOf('tinybarsToTinycents(uint256)');
const UINT256_LIMIT = 1n << 256n;

/** The rate of a ledger whose file 0.0.112 was never written: the consensus node's genesis rate, 1 ℏ = 12 ¢. */
export const GENESIS_RATE: ExchangeRate = { hbarEquiv: 1n, centEquiv: 12n };

function rateOf(rate: Decoded | undefined): ExchangeRate | undefined {
  const hbarEquiv = rate?.hbarEquiv;
  const centEquiv = rate?.centEquiv;
  if (typeof hbarEquiv !== 'number' || typeof centEquiv !== 'number' || hbarEquiv <= 0 || centEquiv <= 0) {
    return undefined;
  }
  return { hbarEquiv: BigInt(hbarEquiv), centEquiv: BigInt(centEquiv) };
}

/** The rate in force at the reader's block. */
export async function exchangeRateAt(reader: LedgerReader): Promise<ExchangeRate> {
  const { block, settings } = reader;
  const upper = block.historical ? block.consensusEnd : 2n ** 63n - 1n;
  const [file] = await loadSystemFiles(
    reader.db,
    [
      {
        id: systemFileId({ shard: Number(settings.shard), realm: Number(settings.realm) }, EXCHANGE_RATE_FILE),
        message: EXCHANGE_RATE_SET,
      },
    ],
    { empty: false, lower: 0n, upper },
  );
  if (!file) return GENESIS_RATE;
  const current = file.data.currentRate as Decoded | undefined;
  const expiry = (current?.expirationTime as Decoded | undefined)?.seconds;
  const expired = typeof expiry === 'bigint' && block.consensusStart / NS_PER_SECOND >= expiry;
  return (expired ? rateOf(file.data.nextRate as Decoded | undefined) : undefined) ?? rateOf(current) ?? GENESIS_RATE;
}

const rateCaches = new WeakMap<LedgerReader, Promise<ExchangeRate>>();

function cachedRate(reader: LedgerReader): Promise<ExchangeRate> {
  let rate = rateCaches.get(reader);
  if (!rate) {
    rate = exchangeRateAt(reader);
    rateCaches.set(reader, rate);
  }
  return rate;
}

export function exchangeRatePrecompile(reader: LedgerReader): PrecompileFunc {
  return async ({ data, gasLimit }) => {
    const selector = leadingSelector(data);
    if (selector !== TO_TINYBARS && selector !== TO_TINYCENTS) return halt(gasLimit);
    if (data.length < 36) return halt(gasLimit);
    let amount = 0n;
    for (const byte of data.subarray(4, 36)) amount = (amount << 8n) | BigInt(byte);
    const rate = await cachedRate(reader);
    const result =
      selector === TO_TINYBARS
        ? (amount * rate.hbarEquiv) / rate.centEquiv
        : (amount * rate.centEquiv) / rate.hbarEquiv;
    if (result >= UINT256_LIMIT) return halt(gasLimit);
    return success(EXCHANGE_RATE_GAS, gasLimit, encode(int(result)));
  };
}
