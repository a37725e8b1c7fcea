/**
 * The simulated network's fee schedule file 0.0.111: a CurrentAndNextFeeSchedule with an entry for every
 * HederaFunctionality the consensus node's genesis schedule prices (hiero-consensus-node
 * `hedera-file-service-impl/src/main/resources/genesis/feeSchedules.json`), each with the subtypes that schedule gives
 * it, priced at about mainnet's USD price as constants alone (no per-byte or per-signature part). The contract
 * functionalities carry the node's gas price, which is what `/api/v1/network/fees` answers and a JSON-RPC relay
 * prices gas by.
 *
 * What the simulator charges a HAPI transaction is its own table (fees.ts), not this schedule. The schedule matters to
 * the EVM: a system contract call is charged the larger of its dispatch's canonical price and the dispatched body's
 * fee under this schedule (docs/adr/0038). Every subtype a contract's token dispatch uses (transfers, mints, burns,
 * wipes, freezes, pauses, KYC changes, deletions, dissociations) is priced here at that canonical price, which is what
 * mainnet charges for them, so the canonical price stands, as the simulator's model (evm/hts-functions.ts) charges it.
 */
import { hapi } from '../../proto/hapi.ts';
import { i64 } from '../ledger/ids.ts';

type SubType =
  | 'DEFAULT'
  | 'TOKEN_FUNGIBLE_COMMON'
  | 'TOKEN_NON_FUNGIBLE_UNIQUE'
  | 'TOKEN_FUNGIBLE_COMMON_WITH_CUSTOM_FEES'
  | 'TOKEN_NON_FUNGIBLE_UNIQUE_WITH_CUSTOM_FEES'
  | 'TOPIC_CREATE_WITH_CUSTOM_FEES';

/** US dollars as tinycents (10^-8 cents). */
const usd = (dollars: number): bigint => BigInt(Math.round(dollars * 1e10));

/** $0.000_000_0852 a gas, in schedule units (thousandths of a tinycent): the node's gas price. */
export const GAS_PRICE_SCHEDULE_UNITS = 852_000n;

interface Priced {
  readonly tinycents: bigint;
  /** The gas price, for the functionalities that run the EVM. */
  readonly gas?: bigint;
}

const FUNGIBLE_AND_UNIQUE = (price: number): Partial<Record<SubType, Priced>> => ({
  TOKEN_FUNGIBLE_COMMON: { tinycents: usd(price) },
  TOKEN_NON_FUNGIBLE_UNIQUE: { tinycents: usd(price) },
});
const only = (price: number, gas?: bigint): Partial<Record<SubType, Priced>> => ({
  DEFAULT: { tinycents: usd(price), ...(gas === undefined ? {} : { gas }) },
});

/** Functionality (the proto enum's name) → its subtypes' prices, in the genesis schedule's order. */
const SCHEDULE: Readonly<Record<string, Partial<Record<SubType, Priced>>>> = {
  CryptoCreate: only(0.05),
  CryptoDeleteAllowance: only(0.05),
  CryptoApproveAllowance: only(0.05),
  CryptoAccountAutoRenew: only(0.00022),
  CryptoUpdate: only(0.00022),
  TokenAirdrop: only(0.1),
  CryptoTransfer: {
    DEFAULT: { tinycents: usd(0.0001) },
    TOKEN_FUNGIBLE_COMMON: { tinycents: usd(0.001) },
    TOKEN_FUNGIBLE_COMMON_WITH_CUSTOM_FEES: { tinycents: usd(0.002) },
    TOKEN_NON_FUNGIBLE_UNIQUE: { tinycents: usd(0.001) },
    TOKEN_NON_FUNGIBLE_UNIQUE_WITH_CUSTOM_FEES: { tinycents: usd(0.002) },
  },
  CryptoDelete: only(0.005),
  CryptoAddLiveHash: only(0.05),
  CryptoDeleteLiveHash: only(0.005),
  CryptoGetLiveHash: only(0.0001),
  CryptoGetAccountRecords: only(0.0001),
  CryptoGetAccountBalance: only(0),
  CryptoGetInfo: only(0.0001),
  CryptoGetStakers: only(0.0001),
  ConsensusCreateTopic: { DEFAULT: { tinycents: usd(0.01) }, TOPIC_CREATE_WITH_CUSTOM_FEES: { tinycents: usd(2) } },
  ConsensusUpdateTopic: only(0.00022),
  ConsensusDeleteTopic: only(0.005),
  ConsensusSubmitMessage: only(0.0001),
  ConsensusGetTopicInfo: only(0.0001),
  UtilPrng: only(0.001),
  TokenCreate: {
    TOKEN_FUNGIBLE_COMMON_WITH_CUSTOM_FEES: { tinycents: usd(2) },
    TOKEN_FUNGIBLE_COMMON: { tinycents: usd(1) },
    TOKEN_NON_FUNGIBLE_UNIQUE: { tinycents: usd(1) },
    TOKEN_NON_FUNGIBLE_UNIQUE_WITH_CUSTOM_FEES: { tinycents: usd(2) },
  },
  TokenDelete: only(0.001),
  TokenFeeScheduleUpdate: only(0.001),
  TokenUpdate: only(0.001),
  TokenMint: { TOKEN_FUNGIBLE_COMMON: { tinycents: usd(0.001) }, TOKEN_NON_FUNGIBLE_UNIQUE: { tinycents: usd(0.02) } },
  TokenReject: FUNGIBLE_AND_UNIQUE(0.001),
  TokenUpdateNfts: { TOKEN_NON_FUNGIBLE_UNIQUE: { tinycents: usd(0.001) } },
  NodeCreate: only(0.001),
  NodeUpdate: only(0.001),
  NodeDelete: only(0.001),
  TokenBurn: FUNGIBLE_AND_UNIQUE(0.001),
  TokenAssociateToAccount: only(0.05),
  TokenCancelAirdrop: only(0.001),
  TokenDissociateFromAccount: only(0.05),
  TokenClaimAirdrop: only(0.001),
  TokenGrantKycToAccount: only(0.001),
  TokenRevokeKycFromAccount: only(0.001),
  TokenFreezeAccount: only(0.001),
  TokenUnfreezeAccount: only(0.001),
  TokenPause: only(0.001),
  TokenUnpause: only(0.001),
  TokenAccountWipe: FUNGIBLE_AND_UNIQUE(0.001),
  TokenGetInfo: only(0.0001),
  TokenGetNftInfo: only(0.001),
  ScheduleCreate: only(0.01),
  ScheduleSign: only(0.001),
  ScheduleDelete: only(0.001),
  ScheduleGetInfo: only(0.0001),
  ContractCreate: only(1, GAS_PRICE_SCHEDULE_UNITS),
  ContractUpdate: only(0.026),
  ContractDelete: only(0.007),
  ContractCall: only(0, GAS_PRICE_SCHEDULE_UNITS),
  EthereumTransaction: only(0.0001, GAS_PRICE_SCHEDULE_UNITS),
  ContractGetInfo: only(0.0001),
  ContractCallLocal: only(0.001, GAS_PRICE_SCHEDULE_UNITS),
  ContractGetBytecode: only(0.05),
  GetBySolidityID: only(0.0001),
  ContractGetRecords: only(0.0001),
  ContractAutoRenew: only(0.026),
  FileCreate: only(0.05),
  FileUpdate: only(0.05),
  FileDelete: only(0.007),
  FileAppend: only(0.05),
  FileGetContents: only(0.0001),
  FileGetInfo: only(0.0001),
  GetVersionInfo: only(0),
  GetByKey: only(0),
  TransactionGetReceipt: only(0),
  SystemDelete: only(0),
  SystemUndelete: only(0),
  TransactionGetRecord: only(0.0001),
  AtomicBatch: only(0.001),
};

const MAX_FEE = '1000000000000000';

/**
 * One provider's FeeComponents: a constant (in thousandths of a tinycent) and the gas price, clamped to [0, max].
 * Zeros are left off the wire, as proto3 writes them.
 */
const components = (constant: bigint, gas: bigint | undefined) => ({
  ...(constant === 0n ? {} : { constant: i64(constant) }),
  ...(gas === undefined ? {} : { gas: i64(gas) }),
  max: MAX_FEE,
});

/**
 * One FeeSchedule: the node gets a tenth of each price, the network a fifth, the service the rest, as the simulator
 * splits what it charges (fees.ts); the gas price is the service's, where the mirror node reads it.
 */
function feeSchedule(expirySeconds: bigint) {
  const types = hapi().root;
  const functionality = types.lookupEnum('proto.HederaFunctionality').values;
  const subType = types.lookupEnum('proto.SubType').values;
  return {
    transactionFeeSchedule: Object.entries(SCHEDULE).map(([name, fees]) => {
      const number = functionality[name];
      if (number === undefined) throw new Error(`fee schedule: no HederaFunctionality ${name}`);
      return {
        hederaFunctionality: number,
        fees: Object.entries(fees).map(([type, price]) => {
          const total = price.tinycents * 1000n;
          return {
            ...(type === 'DEFAULT' ? {} : { subType: subType[type] }),
            nodedata: components(total / 10n, undefined),
            networkdata: components(total / 5n, undefined),
            servicedata: components(total - (total * 3n) / 10n, price.gas),
          };
        }),
      };
    }),
    expiryTime: { seconds: i64(expirySeconds) },
  };
}

const DAY = 86_400n;

/** The file's contents at `nowNs`: the current schedule expires at the next midnight, the next one a day later. */
export function feeScheduleFileContents(nowNs: bigint): Uint8Array {
  const expiry = (nowNs / 1_000_000_000n / DAY + 1n) * DAY;
  return hapi()
    .root.lookupType('proto.CurrentAndNextFeeSchedule')
    .encode({ currentFeeSchedule: feeSchedule(expiry), nextFeeSchedule: feeSchedule(expiry + DAY) })
    .finish();
}
