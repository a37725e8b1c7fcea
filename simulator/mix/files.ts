/**
 * System file updates by the treasury (privileged, so free): the exchange rate file 0.0.112 (an
 * ExchangeRateSet; the next rate becomes current and a new next rate drifts a few percent, valid to the next
 * hour) and the fee schedule file 0.0.111 (network/fee-schedule.ts, current to the next midnight). Both files exist
 * from genesis (network/system-files.ts); these updates follow.
 */
import { EXCHANGE_RATE_FILE, FEE_SCHEDULE_FILE, filePb, TREASURY } from '../ledger/ids.ts';
import { feeScheduleFileContents } from '../network/fee-schedule.ts';
import type { Network } from '../network/network.ts';
import { exchangeRateFileContents } from '../network/system-files.ts';

const HOUR = 3600n;

export async function updateExchangeRate(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const seconds = net.now / 1_000_000_000n;
  const expiry = (seconds / HOUR + 1n) * HOUR;
  const current = { ...ledger.nextExchangeRate, expirationSeconds: expiry };
  const drift = 1 + (random.next() - 0.5) / 10;
  // Rates are stated per 30,000 hbar, as mainnet's are; the cents per hbar drift by up to ±5 % an hour.
  // Kept between 5 and 30 cents, so fees stay payable over runs of any length.
  const centsPerHbar = Math.min(30, Math.max(5, (current.centEquiv / current.hbarEquiv) * drift));
  const next = {
    hbarEquiv: 30_000,
    centEquiv: Math.max(3_000, Math.round(centsPerHbar * 30_000)),
    expirationSeconds: expiry + HOUR,
  };
  const contents = exchangeRateFileContents(current, next);
  await net.submit({
    payer: TREASURY,
    body: { fileUpdate: { fileID: filePb(EXCHANGE_RATE_FILE), contents } },
    price: undefined,
    execute: () => {
      ledger.exchangeRate = current;
      ledger.nextExchangeRate = next;
      ledger.files.set(EXCHANGE_RATE_FILE, contents);
      return {};
    },
  });
  return true;
}

export async function updateFeeSchedule(net: Network): Promise<boolean> {
  const contents = feeScheduleFileContents(net.now);
  await net.submit({
    payer: TREASURY,
    body: { fileUpdate: { fileID: filePb(FEE_SCHEDULE_FILE), contents } },
    price: undefined,
    payloadBytes: contents.length,
    execute: () => {
      net.ledger.files.set(FEE_SCHEDULE_FILE, contents);
      return {};
    },
  });
  return true;
}
