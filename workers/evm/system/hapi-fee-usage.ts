/**
 * The resource usage the consensus node's fee handlers estimate for the synthetic HAPI bodies a system contract
 * dispatches, as `dispatchComputeFees` sees them: a child fee context (ChildFeeContext) with no signatures, an empty
 * signature map, a payer key of no keys, and no memo bytes (an internal dispatch). Written from hapi-fees'
 * UsageAccumulator (`resetForTransaction`, `reset`), the `calculateFees` of CryptoTransferHandler, TokenMintHandler,
 * TokenBurnHandler, TokenAccountWipeHandler, TokenFreezeAccountHandler, TokenUnfreezeAccountHandler, TokenPauseHandler
 * and TokenUnpauseHandler, the usage estimators TokenGrantKycUsage, TokenRevokeKycUsage, TokenDeleteUsage and
 * TokenDissociateUsage with TxnUsageEstimator and SingletonEstimatorUtils, TokenOpsUsageUtils and TokenEntitySizes of
 * hiero-consensus-node.
 */
import { HEDERA_FUNCTIONALITY } from '../../routes/network/fees-estimate/hedera-functionality.ts';

/** `SubType` of basic_types.proto. */
export const SUB_TYPE = {
  DEFAULT: 0,
  TOKEN_FUNGIBLE_COMMON: 1,
  TOKEN_NON_FUNGIBLE_UNIQUE: 2,
  TOKEN_FUNGIBLE_COMMON_WITH_CUSTOM_FEES: 3,
  TOKEN_NON_FUNGIBLE_UNIQUE_WITH_CUSTOM_FEES: 4,
} as const;

/** What UsageAccumulator holds: storage in byte-seconds, the rest in their own units. */
export interface Usage {
  readonly bpt: bigint;
  readonly vpt: bigint;
  readonly bpr: bigint;
  readonly sbpr: bigint;
  readonly rbs: bigint;
  readonly sbs: bigint;
  readonly networkRbs: bigint;
  readonly gas: bigint;
  readonly payerKeys: bigint;
}

/** Usage per provider as a FeeBuilder usage estimator answers it: the FeeData each resource price multiplies. */
export type UsageMatrix = Readonly<
  Record<
    'node' | 'network' | 'service',
    Readonly<Partial<Record<'constant' | 'bpt' | 'vpt' | 'rbh' | 'sbh' | 'bpr' | 'sbpr', bigint>>>
  >
>;

/** A body whose handler accumulates its usage (`calculate()`, priced by OverflowCheckingCalc). */
export interface AccumulatedUsage {
  readonly functionality: number;
  readonly subType: number;
  readonly pricing: 'accumulator';
  readonly usage: Usage;
}

/** A body whose handler estimates its usage (`legacyCalculate`, priced by FeeBuilder.getFeeObject). */
export interface EstimatedUsage {
  readonly functionality: number;
  readonly subType: number;
  readonly pricing: 'estimator';
  readonly matrix: UsageMatrix;
}

/** A body's usage with the schedule entry (functionality and subtype) that prices it. */
export type BodyUsage = AccumulatedUsage | EstimatedUsage;

// FeeConstants and SingletonUsageProperties sizes, in bytes.
const LONG_SIZE = 8n;
const INT_SIZE = 4n;
const BOOL_SIZE = 4n;
const TX_HASH_SIZE = 48n;
const BASIC_ENTITY_ID_SIZE = 3n * LONG_SIZE;
const BASIC_ACCOUNT_AMT_SIZE = BASIC_ENTITY_ID_SIZE + LONG_SIZE;
const BASIC_TX_ID_SIZE = BASIC_ENTITY_ID_SIZE + LONG_SIZE;
const EXCHANGE_RATE_SIZE = 2n * INT_SIZE + LONG_SIZE;
const BASIC_RECEIPT_SIZE = INT_SIZE + 2n * EXCHANGE_RATE_SIZE;
const BASIC_TX_BODY_SIZE = BASIC_ENTITY_ID_SIZE + BASIC_TX_ID_SIZE + LONG_SIZE + LONG_SIZE + BOOL_SIZE;
const BASIC_TX_RECORD_SIZE = BASIC_RECEIPT_SIZE + TX_HASH_SIZE + LONG_SIZE + BASIC_TX_ID_SIZE + LONG_SIZE;
const RECEIPT_STORAGE_TIME_SEC = 180n;
const ACCOUNT_AMOUNT_BYTES = LONG_SIZE + BASIC_ENTITY_ID_SIZE;
const NFT_TRANSFER_BYTES = LONG_SIZE + 2n * BASIC_ENTITY_ID_SIZE;
/** The amount field a fungible mint, burn or wipe body carries. */
const AMOUNT_REPR_BYTES = 8n;
/** `fees.tokenTransferUsageMultiplier`, the node's default. */
const TOKEN_TRANSFER_USAGE_MULTIPLIER = 380n;

const ZERO: Usage = { bpt: 0n, vpt: 0n, bpr: 0n, sbpr: 0n, rbs: 0n, sbs: 0n, networkRbs: 0n, gas: 0n, payerKeys: 0n };

/** `resetForTransaction` with no memo, no signatures and a payer key of no keys. */
function baseUsage(hbarTransfers: number): Usage {
  return {
    ...ZERO,
    bpr: INT_SIZE,
    bpt: BASIC_TX_BODY_SIZE,
    rbs: RECEIPT_STORAGE_TIME_SEC * (BASIC_TX_RECORD_SIZE + BASIC_ACCOUNT_AMT_SIZE * BigInt(hbarTransfers)),
    networkRbs: RECEIPT_STORAGE_TIME_SEC * BASIC_RECEIPT_SIZE,
  };
}

/** `TokenEntitySizes.bytesUsedToRecordTokenTransfers`. */
const tokenTransferRecordBytes = (tokens: bigint, fungible: bigint, nfts: bigint): bigint =>
  tokens * BASIC_ENTITY_ID_SIZE + fungible * ACCOUNT_AMOUNT_BYTES + nfts * NFT_TRANSFER_BYTES;

/** What a CryptoTransfer body holds, for its fee. */
export interface TransferBody {
  readonly hbarAdjusts: number;
  /** One per token transfer list. */
  readonly tokenLists: number;
  readonly unitAdjusts: number;
  readonly nftExchanges: number;
  /** Custom fees would be assessed: the subtypes WITH_CUSTOM_FEES. */
  readonly customFees: boolean;
}

/** CryptoTransferHandler.calculateFees; the assessed custom fees' own transfers are not counted (see the docs). */
export function transferUsage(body: TransferBody): AccumulatedUsage {
  const base = baseUsage(body.hbarAdjusts);
  const tokens = TOKEN_TRANSFER_USAGE_MULTIPLIER * BigInt(body.tokenLists);
  const units = TOKEN_TRANSFER_USAGE_MULTIPLIER * BigInt(body.unitAdjusts);
  const hbar = BigInt(body.hbarAdjusts);
  const nfts = BigInt(body.nftExchanges);
  const bpt =
    tokens * BASIC_ENTITY_ID_SIZE +
    (units + hbar) * ACCOUNT_AMOUNT_BYTES +
    nfts * (2n * BASIC_ENTITY_ID_SIZE + LONG_SIZE);
  const rbs = hbar * ACCOUNT_AMOUNT_BYTES + tokenTransferRecordBytes(tokens, units, nfts);
  let subType: number = SUB_TYPE.DEFAULT;
  if (body.nftExchanges > 0) {
    subType = body.customFees
      ? SUB_TYPE.TOKEN_NON_FUNGIBLE_UNIQUE_WITH_CUSTOM_FEES
      : SUB_TYPE.TOKEN_NON_FUNGIBLE_UNIQUE;
  } else if (body.unitAdjusts > 0) {
    subType = body.customFees ? SUB_TYPE.TOKEN_FUNGIBLE_COMMON_WITH_CUSTOM_FEES : SUB_TYPE.TOKEN_FUNGIBLE_COMMON;
  }
  return {
    functionality: HEDERA_FUNCTIONALITY.CryptoTransfer as number,
    subType,
    pricing: 'accumulator',
    usage: { ...base, bpt: base.bpt + bpt, rbs: base.rbs + rbs * RECEIPT_STORAGE_TIME_SEC },
  };
}

/**
 * TokenMintHandler.calculateFees: a body with an amount is a fungible mint; one without prices its metadata count
 * alone (the schedule's NFT entry charges a fixed price per metadata through `bpt`).
 */
export function mintUsage(amount: bigint, metadata: number): AccumulatedUsage {
  const functionality = HEDERA_FUNCTIONALITY.TokenMint as number;
  if (amount > 0n) {
    const base = baseUsage(0);
    return {
      functionality,
      subType: SUB_TYPE.TOKEN_FUNGIBLE_COMMON,
      pricing: 'accumulator',
      usage: {
        ...base,
        bpt: base.bpt + AMOUNT_REPR_BYTES + BASIC_ENTITY_ID_SIZE,
        networkRbs: base.networkRbs + tokenTransferRecordBytes(1n, 1n, 0n) * RECEIPT_STORAGE_TIME_SEC,
      },
    };
  }
  return {
    functionality,
    subType: SUB_TYPE.TOKEN_NON_FUNGIBLE_UNIQUE,
    pricing: 'accumulator',
    usage: { ...ZERO, bpt: BigInt(metadata) },
  };
}

/**
 * TokenOpsUsageUtils.retrieveRawDataFrom, shared by burns and wipes: the body's size follows its serials; the entry
 * follows the serials for a burn and the token's type for a wipe.
 */
function supplyChangeUsage(functionality: number, serials: number, nftEntry: boolean): AccumulatedUsage {
  const base = baseUsage(0);
  const count = BigInt(serials);
  const nft = serials > 0;
  const bpt = (nft ? count * LONG_SIZE : AMOUNT_REPR_BYTES) + BASIC_ENTITY_ID_SIZE;
  const record = nft ? tokenTransferRecordBytes(1n, 0n, count) : tokenTransferRecordBytes(1n, 1n, 0n);
  return {
    functionality,
    subType: nftEntry ? SUB_TYPE.TOKEN_NON_FUNGIBLE_UNIQUE : SUB_TYPE.TOKEN_FUNGIBLE_COMMON,
    pricing: 'accumulator',
    usage: { ...base, bpt: base.bpt + bpt, networkRbs: base.networkRbs + record * RECEIPT_STORAGE_TIME_SEC },
  };
}

export const burnUsage = (serials: number): AccumulatedUsage =>
  supplyChangeUsage(HEDERA_FUNCTIONALITY.TokenBurn as number, serials, serials > 0);

export const wipeUsage = (serials: number, fungibleToken: boolean): AccumulatedUsage =>
  supplyChangeUsage(HEDERA_FUNCTIONALITY.TokenAccountWipe as number, serials, !fungibleToken);

/** A freeze or unfreeze body names a token and an account; a pause or unpause a token (TokenOpsUsageUtils). */
const FLAG_BODY_BYTES: Readonly<
  Record<'TokenFreezeAccount' | 'TokenUnfreezeAccount' | 'TokenPause' | 'TokenUnpause', bigint>
> = {
  TokenFreezeAccount: 2n * BASIC_ENTITY_ID_SIZE,
  TokenUnfreezeAccount: 2n * BASIC_ENTITY_ID_SIZE,
  TokenPause: BASIC_ENTITY_ID_SIZE,
  TokenUnpause: BASIC_ENTITY_ID_SIZE,
};

export function flagUsage(functionality: keyof typeof FLAG_BODY_BYTES): AccumulatedUsage {
  const base = baseUsage(0);
  return {
    functionality: HEDERA_FUNCTIONALITY[functionality] as number,
    subType: SUB_TYPE.DEFAULT,
    pricing: 'accumulator',
    usage: { ...base, bpt: base.bpt + FLAG_BODY_BYTES[functionality] },
  };
}

const HRS_DIVISOR = 3600n;
/** EstimatorUtils.nonDegenerateDiv: any nonzero usage counts at least one unit. */
export const nonDegenerateDiv = (dividend: bigint, divisor: bigint): bigint =>
  dividend === 0n ? 0n : dividend / divisor > 1n ? dividend / divisor : 1n;

/**
 * TxnUsageEstimator.get for a body of `entities` entity ids and nothing else (TokenTxnUsage.addEntityBpt), with no
 * signatures or memo: `baseEstimate` and `withDefaultTxnPartitioning`, storage in hours.
 */
function entityEstimate(functionality: number, entities: number): EstimatedUsage {
  const bpt = BASIC_TX_BODY_SIZE + BigInt(entities) * BASIC_ENTITY_ID_SIZE;
  return {
    functionality,
    subType: SUB_TYPE.DEFAULT,
    pricing: 'estimator',
    matrix: {
      network: { constant: 1n, bpt, rbh: nonDegenerateDiv(RECEIPT_STORAGE_TIME_SEC * BASIC_RECEIPT_SIZE, HRS_DIVISOR) },
      node: { constant: 1n, bpt, bpr: INT_SIZE },
      service: { constant: 1n, rbh: nonDegenerateDiv(RECEIPT_STORAGE_TIME_SEC * BASIC_TX_RECORD_SIZE, HRS_DIVISOR) },
    },
  };
}

/** Fees.CONSTANT_FEE_DATA: what a handler charges when the entity its estimate reads is missing. */
const constantEstimate = (functionality: number): EstimatedUsage => ({
  functionality,
  subType: SUB_TYPE.DEFAULT,
  pricing: 'estimator',
  matrix: { network: { constant: 1n }, node: { constant: 1n }, service: { constant: 1n } },
});

/** TokenGrantKycUsage and TokenRevokeKycUsage: a token and an account. */
export const kycUsage = (functionality: 'TokenGrantKycToAccount' | 'TokenRevokeKycFromAccount'): EstimatedUsage =>
  entityEstimate(HEDERA_FUNCTIONALITY[functionality] as number, 2);

/** TokenDeleteUsage: the token. */
export const deleteUsage = (): EstimatedUsage => entityEstimate(HEDERA_FUNCTIONALITY.TokenDelete as number, 1);

/** TokenDissociateUsage: the account and each token; a missing account prices the constants alone. */
export const dissociateUsage = (tokens: number, accountExists: boolean): EstimatedUsage => {
  const functionality = HEDERA_FUNCTIONALITY.TokenDissociateFromAccount as number;
  return accountExists ? entityEstimate(functionality, 1 + tokens) : constantEstimate(functionality);
};
