/**
 * The workload of `npm run bench:ingest`, pinned: the relative weights of the simulator's transaction families the
 * benchmark draws from, and nothing else. The simulator's own mix changes as it learns new families; this one does
 * not, so runs of different versions ingest the same kinds of transactions in the same shares (docs/performance.md,
 * "The ingest benchmark's mix"). Changing it starts a new series of figures.
 */
import type { PinnedMix } from '../simulator/mix/mix.ts';

export const BENCH_INGEST_MIX: PinnedMix = {
  // Consensus messages: 38%.
  submitMessage: 340,
  // Hbar transfers: 25%.
  hbarTransfer: 220,
  faucet: 5,
  // Token transfers (fungible, NFT, airdrops and their claims): 18%.
  fungibleTransfer: 90,
  nftTransfer: 35,
  airdrop: 20,
  claimOrCancel: 12,
  // Token, account, allowance, topic and schedule management: 17%.
  mint: 40,
  burn: 8,
  associate: 30,
  createToken: 5,
  createAccount: 12,
  updateAccount: 8,
  deleteAccount: 3,
  approve: 15,
  spendAllowance: 12,
  deleteNftAllowance: 3,
  createTopic: 5,
  createSchedule: 10,
  signSchedule: 7,
  // Contract calls and creations (HAPI), with sidecars: 1%.
  callContract: 8,
  deployContract: 1,
  // Ethereum transactions (types 0, 1, 2 and 4), with sidecars: 0.7%.
  ethereumTransaction: 6,
};
