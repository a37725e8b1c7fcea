/**
 * The system files a new network starts with, written as the consensus node writes them at genesis: before the
 * first user transaction it dispatches one synthetic FileCreate per system file, paid by the system admin 0.0.50,
 * unsigned and free, each at its own consensus time one nanosecond after the last (hiero-consensus-node
 * `SystemTransactions.doGenesisSetup` → `FileServiceImpl.createSystemEntities` → `V0490FileSchema`'s
 * `createGenesisFeeSchedule` and `createGenesisExchangeRate`, through `SystemContext.dispatchCreation`). Their
 * records go into the first record file (and block), so a mirror node knows the fee schedule and the exchange
 * rates from the first file on. The simulated network creates the two files the mirror's fee and rate answers read,
 * 0.0.111 and 0.0.112; its address book comes to the mirror with the stream (`address-book.bin`).
 */
import { hapi } from '../../proto/hapi.ts';
import { EXCHANGE_RATE_FILE, FEE_SCHEDULE_FILE, filePb, i64, TREASURY } from '../ledger/ids.ts';
import type { ExchangeRate } from '../ledger/ledger.ts';
import { feeScheduleFileContents } from './fee-schedule.ts';
import { keyPb } from './keys.ts';
import type { Network } from './network.ts';

const HOUR = 3600n;
const NS_PER_SECOND = 1_000_000_000n;
/** The node's `maxLifetimeExpiry`: a system file lives as long as an entity may, `entities.maxLifetime` (100 years). */
const MAX_LIFETIME_SECONDS = 3_153_600_000n;

function ratePb(rate: ExchangeRate) {
  return {
    hbarEquiv: rate.hbarEquiv,
    centEquiv: rate.centEquiv,
    expirationTime: { seconds: i64(rate.expirationSeconds) },
  };
}

/** An ExchangeRateSet, the contents of 0.0.112. */
export function exchangeRateFileContents(current: ExchangeRate, next: ExchangeRate): Uint8Array {
  return hapi()
    .root.lookupType('proto.ExchangeRateSet')
    .encode({ currentRate: ratePb(current), nextRate: ratePb(next) })
    .finish();
}

/**
 * Creates 0.0.111 and 0.0.112 at `genesisNs` and the nanosecond after it, owned by the genesis key (the treasury's).
 * The genesis rates are the ledger's, the current one valid to the next hour, the next one for the hour after.
 */
export function createGenesisFiles(net: Network, genesisNs: bigint): void {
  const { ledger } = net;
  const genesisKey = ledger.account(TREASURY).key;
  const keys = genesisKey ? { keys: { keys: [keyPb(genesisKey)] } } : {};
  const expiry = (genesisNs / NS_PER_SECOND / HOUR + 1n) * HOUR;
  ledger.exchangeRate = { ...ledger.exchangeRate, expirationSeconds: expiry };
  ledger.nextExchangeRate = { ...ledger.nextExchangeRate, expirationSeconds: expiry + HOUR };
  const files: [bigint, Uint8Array][] = [
    [FEE_SCHEDULE_FILE, feeScheduleFileContents(genesisNs)],
    [EXCHANGE_RATE_FILE, exchangeRateFileContents(ledger.exchangeRate, ledger.nextExchangeRate)],
  ];
  for (const [index, [file, contents]] of files.entries()) {
    const consensusNs = genesisNs + BigInt(index);
    net.dispatchSystem(
      {
        fileCreate: {
          ...keys,
          contents,
          expirationTime: { seconds: i64(consensusNs / NS_PER_SECOND + MAX_LIFETIME_SECONDS) },
        },
      },
      consensusNs,
      { fileID: filePb(file) },
    );
    ledger.files.set(file, contents);
  }
}
