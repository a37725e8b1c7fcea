/**
 * System file updates by the treasury (privileged, so free): the exchange rate file 0.0.112 (an
 * ExchangeRateSet; the next rate becomes current and a new next rate drifts a few percent, valid to the next
 * hour) and the fee schedule file 0.0.111 (a CurrentAndNextFeeSchedule priced from the simulator's table).
 */
import { hapi } from '../../proto/hapi.ts';
import { EXCHANGE_RATE_FILE, FEE_SCHEDULE_FILE, filePb, i64, TREASURY } from '../ledger/ids.ts';
import type { ExchangeRate } from '../ledger/ledger.ts';
import { PRICE_TINYCENTS, type Priced } from '../network/fees.ts';
import type { Network } from '../network/network.ts';

const HOUR = 3600n;

function ratePb(rate: ExchangeRate) {
  return {
    hbarEquiv: rate.hbarEquiv,
    centEquiv: rate.centEquiv,
    expirationTime: { seconds: i64(rate.expirationSeconds) },
  };
}

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
  const contents = hapi()
    .root.lookupType('proto.ExchangeRateSet')
    .encode({ currentRate: ratePb(current), nextRate: ratePb(next) })
    .finish();
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

const FUNCTIONALITY: Readonly<Record<string, number>> = {
  cryptoTransfer: 1,
  cryptoUpdate: 2,
  cryptoDelete: 3,
  contractCallBase: 6,
  contractCreate: 7,
  cryptoCreate: 27,
  topicCreate: 50,
  submitMessage: 54,
  tokenCreate: 56,
  tokenMint: 65,
  tokenBurn: 66,
  tokenAssociate: 68,
  scheduleCreate: 70,
  scheduleSign: 72,
  approveAllowance: 81,
  deleteAllowance: 82,
  tokenAirdrop: 93,
  claimAirdrop: 95,
};

/** One TransactionFeeSchedule per functionality: the price as constant node / network / service components. */
function feeSchedule(expirySeconds: bigint, scale: bigint) {
  return {
    transactionFeeSchedule: Object.entries(FUNCTIONALITY).map(([priced, functionality]) => {
      // Fee schedules state their constants in thousandths of a tinycent.
      const total = (PRICE_TINYCENTS[priced as Priced] * 1000n * scale) / 100n;
      const component = (part: bigint) => ({ min: '0', max: '1000000000000000', constant: i64(part), bpt: '0' });
      return {
        hederaFunctionality: functionality,
        fees: [
          {
            nodedata: component(total / 10n),
            networkdata: component(total / 5n),
            servicedata: component(total - (total * 3n) / 10n),
          },
        ],
      };
    }),
    expiryTime: { seconds: i64(expirySeconds) },
  };
}

export async function updateFeeSchedule(net: Network): Promise<boolean> {
  const seconds = net.now / 1_000_000_000n;
  const expiry = (seconds / (24n * HOUR) + 1n) * 24n * HOUR;
  const contents = hapi()
    .root.lookupType('proto.CurrentAndNextFeeSchedule')
    .encode({ currentFeeSchedule: feeSchedule(expiry, 100n), nextFeeSchedule: feeSchedule(expiry + 24n * HOUR, 100n) })
    .finish();
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
