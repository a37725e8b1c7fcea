/**
 * The gas of a state-changing HTS call, as the consensus node's SystemContractGasCalculator derives it from the HAPI
 * price of the same operation: the larger of the canonical price of its dispatch type (hapi-fees
 * `canonical-prices.json`, in tinycents) and the HAPI fee of the synthetic body it dispatches (hapi-fee.ts, converted
 * to tinycents at the block's rate), at the ContractCall gas price of 852,000 fee schedule units (852 tinycents) a
 * gas, rounded up, plus the 20% premium of a HAPI operation run inside the EVM. Functions whose body is not priced
 * here use the canonical price alone.
 */
import type { ExchangeRate } from './exchange-rate-file.ts';

/** Canonical prices in tinycents ($1 = 10^10 tinycents), by the consensus node's DispatchType. */
export const CANONICAL_TINYCENTS = {
  TRANSFER_HBAR: 1_000_000n,
  TRANSFER_FUNGIBLE: 10_000_000n,
  TRANSFER_FUNGIBLE_CUSTOM_FEES: 20_000_000n,
  TRANSFER_NFT: 10_000_000n,
  TRANSFER_NFT_CUSTOM_FEES: 20_000_000n,
  CRYPTO_CREATE: 500_000_000n,
  CRYPTO_UPDATE: 2_200_000n,
  MINT_FUNGIBLE: 10_000_000n,
  MINT_NFT: 200_000_000n,
  BURN_FUNGIBLE: 10_000_000n,
  BURN_NFT: 10_000_000n,
  DELETE: 10_000_000n,
  ASSOCIATE: 500_000_000n,
  DISSOCIATE: 500_000_000n,
  APPROVE: 500_000_000n,
  DELETE_NFT_APPROVE: 500_000_000n,
  GRANT_KYC: 10_000_000n,
  REVOKE_KYC: 10_000_000n,
  PAUSE: 10_000_000n,
  UNPAUSE: 10_000_000n,
  FREEZE: 10_000_000n,
  UNFREEZE: 10_000_000n,
  WIPE_FUNGIBLE: 10_000_000n,
  WIPE_NFT: 10_000_000n,
  UPDATE: 10_000_000n,
  TOKEN_UPDATE_NFTS: 10_000_000n,
  TOKEN_REJECT_FT: 10_000_000n,
  UPDATE_TOKEN_CUSTOM_FEES: 10_000_000n,
  TOKEN_AIRDROP: 1_000_000_000n,
  TOKEN_CLAIM_AIRDROP: 10_000_000n,
  TOKEN_CANCEL_AIRDROP: 10_000_000n,
  TOKEN_REJECT_NFT: 10_000_000n,
  TOKEN_CREATE: 10_000_000_000n,
  TOKEN_CREATE_CUSTOM_FEES: 20_000_000_000n,
  SCHEDULE_CREATE: 100_000_000n,
  SCHEDULE_CREATE_CONTRACT_CALL: 1_000_000_000n,
  SCHEDULE_SIGN: 100_000_000n,
  SCHEDULE_DELETE: 50_000_000n,
} as const;

export type DispatchType = keyof typeof CANONICAL_TINYCENTS;

/** The fee schedule's ContractCall gas price, in fee schedule units (thousandths of a tinycent). */
const GAS_PRICE_FEE_SCHEDULE_UNITS = 852_000n;
const FEE_SCHEDULE_UNITS_PER_TINYCENT = 1000n;

/** `gasRequirementFromTinycents`: the price rounded up to whole gas, plus a fifth. */
function gasOfTinycents(tinycents: bigint): bigint {
  const gas =
    ((tinycents + GAS_PRICE_FEE_SCHEDULE_UNITS - 1n) * FEE_SCHEDULE_UNITS_PER_TINYCENT) / GAS_PRICE_FEE_SCHEDULE_UNITS;
  return gas + gas / 5n;
}

export const canonicalGas = (type: DispatchType): bigint => gasOfTinycents(CANONICAL_TINYCENTS[type]);

/**
 * `gasRequirementWithTinycents`: the larger of a minimum price and a HAPI fee in tinybars (TinybarValues.asTinycents
 * at the rate, rounded down) as gas.
 */
export function gasRequirement(minimumTinycents: bigint, feeTinybars: bigint, rate: ExchangeRate): bigint {
  const fee = (feeTinybars * rate.centEquiv) / rate.hbarEquiv;
  return gasOfTinycents(fee > minimumTinycents ? fee : minimumTinycents);
}

/** What a CryptoTransfer counts for its gas (ClassicTransfersCall.minimumTinycentPriceGiven). */
export interface TransferShape {
  readonly hbarAdjusts: number;
  readonly unitAdjusts: number;
  readonly nftExchanges: number;
  readonly customFees: boolean;
  /** Credited addresses that name no account: each a lazy creation, a CryptoCreate and a CryptoUpdate. */
  readonly lazyCreations: number;
}

/**
 * The minimum price of a CryptoTransfer: half a fungible transfer per token adjustment (there are always at least
 * two), a whole NFT transfer per exchanged serial, half an hbar transfer per hbar adjustment, a CryptoCreate and a
 * CryptoUpdate per lazy creation, summed before the price becomes gas.
 */
export function transferTinycents(shape: TransferShape): bigint {
  const unit = CANONICAL_TINYCENTS[shape.customFees ? 'TRANSFER_FUNGIBLE_CUSTOM_FEES' : 'TRANSFER_FUNGIBLE'] / 2n;
  const nft = CANONICAL_TINYCENTS[shape.customFees ? 'TRANSFER_NFT_CUSTOM_FEES' : 'TRANSFER_NFT'];
  const hbar = CANONICAL_TINYCENTS.TRANSFER_HBAR / 2n;
  const lazyCreation = CANONICAL_TINYCENTS.CRYPTO_CREATE + CANONICAL_TINYCENTS.CRYPTO_UPDATE;
  return (
    BigInt(shape.unitAdjusts) * unit +
    BigInt(shape.nftExchanges) * nft +
    BigInt(shape.hbarAdjusts) * hbar +
    BigInt(shape.lazyCreations) * lazyCreation
  );
}

/** Gas of a CryptoTransfer's minimum price alone, what it costs where no fee schedule prices its body higher. */
export const transferGas = (shape: TransferShape): bigint => gasOfTinycents(transferTinycents(shape));

/** Gas of `rejectTokens`: the canonical prices of its fungible and NFT rejections, summed, as one price. */
export const rejectGas = (fungible: number, nfts: number): bigint =>
  gasOfTinycents(
    BigInt(fungible) * CANONICAL_TINYCENTS.TOKEN_REJECT_FT + BigInt(nfts) * CANONICAL_TINYCENTS.TOKEN_REJECT_NFT,
  );
