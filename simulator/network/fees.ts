/**
 * What transactions cost and where the fee goes. Prices are in tinycents (10^-8 US cents), the network's fee
 * schedule's dollar prices (a CryptoCreate $0.05, a TokenCreate $1: an SDK's default maximum fees cover them),
 * converted to tinybars at the current exchange rate. The fee is split between the
 * submitting node's account, the staking reward account 0.0.800, the node reward account 0.0.801 and the fee
 * collection account 0.0.98, as mainnet records show.
 */

import { FEE_COLLECTOR, NODE_REWARD_ACCOUNT, STAKING_REWARD_ACCOUNT } from '../ledger/ids.ts';
import type { ExchangeRate } from '../ledger/ledger.ts';

export const PRICE_TINYCENTS = {
  cryptoTransfer: 1_000_000n,
  tokenTransfer: 10_000_000n,
  cryptoCreate: 500_000_000n,
  cryptoUpdate: 2_200_000n,
  cryptoDelete: 50_000_000n,
  approveAllowance: 500_000_000n,
  deleteAllowance: 500_000_000n,
  tokenCreate: 10_000_000_000n,
  tokenAssociate: 500_000_000n,
  tokenMint: 10_000_000n,
  nftMint: 200_000_000n,
  tokenBurn: 10_000_000n,
  tokenAirdrop: 10_000_000n,
  claimAirdrop: 10_000_000n,
  topicCreate: 100_000_000n,
  submitMessage: 1_000_000n,
  scheduleCreate: 100_000_000n,
  scheduleSign: 10_000_000n,
  contractCreate: 10_000_000_000n,
  contractCallBase: 1_000_000n,
  // Families only transactions submitted to a node use (the generated load never makes them).
  topicUpdate: 2_200_000n,
  /** A token or (HIP-991) a topic created with custom fees costs $2 (the `…_WITH_CUSTOM_FEES` subtypes). */
  tokenCreateWithCustomFees: 20_000_000_000n,
  topicCreateWithCustomFees: 20_000_000_000n,
  topicDelete: 50_000_000n,
  tokenUpdate: 10_000_000n,
  tokenFeeScheduleUpdate: 10_000_000n,
  tokenUpdateNfts: 10_000_000n,
  tokenReject: 10_000_000n,
  tokenDelete: 10_000_000n,
  tokenDissociate: 500_000_000n,
  tokenFreeze: 10_000_000n,
  tokenKyc: 10_000_000n,
  tokenPause: 10_000_000n,
  tokenWipe: 10_000_000n,
  scheduleDelete: 10_000_000n,
  contractUpdate: 260_000_000n,
  contractDelete: 70_000_000n,
  fileCreate: 500_000_000n,
  fileAppend: 500_000_000n,
  fileUpdate: 500_000_000n,
  fileDelete: 70_000_000n,
  utilPrng: 10_000_000n,
  /** A paid query's answer (info, records, contents). */
  query: 1_000_000n,
} as const;

export type Priced = keyof typeof PRICE_TINYCENTS;

/** Price of one extra signature, and of each byte past the first 100 of a message or memo. */
const SIGNATURE_TINYCENTS = 1_000_000n;
const BYTE_TINYCENTS = 10_000n;

/** Gas price in tinybars: $0.0000000852 per gas at 12 cents per hbar is 71 tinybars. */
export const GAS_PRICE_TINYBARS = 71n;

export function tinybarsOf(tinycents: bigint, rate: ExchangeRate): bigint {
  return (tinycents * BigInt(rate.hbarEquiv) + BigInt(rate.centEquiv) - 1n) / BigInt(rate.centEquiv);
}

export function feeOf(kind: Priced, rate: ExchangeRate, extra: { signatures: number; bytes: number }): bigint {
  const extraSignatures = BigInt(Math.max(0, extra.signatures - 1));
  const extraBytes = BigInt(Math.max(0, extra.bytes - 100));
  return tinybarsOf(PRICE_TINYCENTS[kind] + extraSignatures * SIGNATURE_TINYCENTS + extraBytes * BYTE_TINYCENTS, rate);
}

/** The credits of a charged fee: node 10 %, 0.0.800 10 %, 0.0.801 10 %, 0.0.98 the rest. */
export function feeCredits(fee: bigint, nodeAccountNum: bigint): [bigint, bigint][] {
  const tenth = fee / 10n;
  return [
    [nodeAccountNum, tenth],
    [STAKING_REWARD_ACCOUNT, tenth],
    [NODE_REWARD_ACCOUNT, tenth],
    [FEE_COLLECTOR, fee - 3n * tenth],
  ];
}
