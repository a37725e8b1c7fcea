/**
 * The transaction mix: a bootstrap that gives the network accounts, tokens, topics and contracts to work with,
 * then a weighted draw per transaction shaped like mainnet traffic (consensus messages and transfers dominate).
 * A draw whose preconditions fail (no NFT to move yet, no pending airdrop) falls back to an hbar transfer, so
 * every call produces exactly one user transaction (plus any execution it triggers).
 */
import type { SimEvm } from '../evm/evm.ts';
import { TREASURY } from '../ledger/ids.ts';
import type { Network } from '../network/network.ts';
import { airdrop, claimOrCancel } from './airdrops.ts';
import { approve, deleteNftAllowance, spendAllowance } from './allowances.ts';
import { submitChunkedMessage } from './chunked-messages.ts';
import { createTopic, submitMessage } from './consensus.ts';
import { callContract, deployContract } from './contracts.ts';
import { createAccount, deleteAccount, faucet, hbarTransfer, updateAccount } from './crypto.ts';
import { ethereumTransaction } from './ethereum.ts';
import { updateExchangeRate, updateFeeSchedule } from './files.ts';
import { htsCall } from './hts-calls.ts';
import { HBAR } from './pick.ts';
import { createSchedule, signSchedule } from './schedules.ts';
import { associate, burn, createToken, mint, tokenTransfer } from './tokens.ts';

const WEIGHTS = {
  submitMessage: 340,
  // Off unless a run asks for it: a weight here changes every later draw, and so every seeded ledger the tests pin.
  chunkedMessage: 0,
  hbarTransfer: 220,
  fungibleTransfer: 90,
  nftTransfer: 35,
  mint: 40,
  burn: 8,
  associate: 30,
  airdrop: 20,
  claimOrCancel: 12,
  createAccount: 12,
  updateAccount: 8,
  deleteAccount: 3,
  approve: 15,
  spendAllowance: 12,
  deleteNftAllowance: 3,
  createToken: 5,
  createTopic: 5,
  createSchedule: 10,
  signSchedule: 7,
  callContract: 8,
  ethereumTransaction: 6,
  deployContract: 1,
  htsCall: 4,
  faucet: 5,
} as const;

export type MixFamily = keyof typeof WEIGHTS;

/** Relative weights of the transaction families; a run may change some (a test asking for many contract calls). */
export type MixWeights = Readonly<Record<MixFamily, number>>;

/**
 * A whole mix in place of the simulator's own: only the families it names are drawn, in the order it names them.
 * A benchmark passes one, so its workload stays the same when the simulator learns new families or reweighs its own.
 */
export type PinnedMix = Readonly<Partial<Record<MixFamily, number>>>;

/** How a run draws: the default weights with some changed, or a pinned mix. */
export type MixChoice = { readonly weights: Partial<MixWeights> } | { readonly pinned: PinnedMix };

/** Exchange rates are refreshed about once an hour of simulated time, the fee schedule once a day. */
const EXCHANGE_RATE_PERIOD_NS = 3_600_000_000_000n;
const FEE_SCHEDULE_PERIOD_NS = 86_400_000_000_000n;

/** Where the mix stands, saved with the model so a continued run neither repeats the bootstrap nor its updates. */
export interface MixState {
  readonly bootstrapLeft: number;
  readonly lastRateUpdate: string;
  readonly lastFeeScheduleUpdate: string;
}

export class Mix {
  private readonly net: Network;
  private readonly evm: SimEvm;
  private readonly weights: PinnedMix;
  private bootstrap: (() => Promise<boolean>)[];
  private lastRateUpdate = -1n;
  private lastFeeScheduleUpdate = -1n;

  constructor(net: Network, evm: SimEvm, choice: MixChoice = { weights: {} }, resume?: MixState) {
    this.net = net;
    this.evm = evm;
    this.weights = 'pinned' in choice ? choice.pinned : { ...WEIGHTS, ...choice.weights };
    const twice = <T>(step: T): T[] => [step, step];
    this.bootstrap = [
      () => updateExchangeRate(net),
      () => updateFeeSchedule(net),
      ...Array.from({ length: 12 }, () => () => createAccount(net, TREASURY)),
      ...twice(() => createToken(net, 'FUNGIBLE_COMMON')),
      ...twice(() => createToken(net, 'NON_FUNGIBLE_UNIQUE')),
      ...twice(() => createTopic(net)),
      () => deployContract(net, evm, 'SimToken'),
      () => deployContract(net, evm, 'Counter'),
    ];
    if (resume) {
      this.bootstrap = this.bootstrap.slice(this.bootstrap.length - resume.bootstrapLeft);
      this.lastRateUpdate = BigInt(resume.lastRateUpdate);
      this.lastFeeScheduleUpdate = BigInt(resume.lastFeeScheduleUpdate);
    }
  }

  state(): MixState {
    return {
      bootstrapLeft: this.bootstrap.length,
      lastRateUpdate: String(this.lastRateUpdate),
      lastFeeScheduleUpdate: String(this.lastFeeScheduleUpdate),
    };
  }

  /** Submits the next user transaction. */
  async next(): Promise<void> {
    const step = this.bootstrap.shift();
    if (step) {
      if (!(await step())) await hbarTransfer(this.net);
      return;
    }
    if (this.lastRateUpdate < 0n) this.lastRateUpdate = this.net.now;
    if (this.lastFeeScheduleUpdate < 0n) this.lastFeeScheduleUpdate = this.net.now;
    if (await this.systemUpdate()) return;
    if (await this.draw(this.net.random.weighted(this.weights))) return;
    if (await hbarTransfer(this.net)) return;
    // Nobody can pay any more: the treasury funds someone, or opens a new account.
    if (!(await faucet(this.net))) await createAccount(this.net, TREASURY);
  }

  /**
   * The network's own system file updates alone, for a run without the generated load: the exchange rates and the
   * fee schedule once at the start (when the bootstrap has not run them), then when due. Whether it submitted one.
   */
  async nextSystemUpdate(): Promise<boolean> {
    if (this.lastRateUpdate < 0n) {
      this.lastRateUpdate = this.net.now;
      if (this.bootstrap.length > 0) return updateExchangeRate(this.net);
    }
    if (this.lastFeeScheduleUpdate < 0n) {
      this.lastFeeScheduleUpdate = this.net.now;
      if (this.bootstrap.length > 0) return updateFeeSchedule(this.net);
    }
    return this.systemUpdate();
  }

  private async systemUpdate(): Promise<boolean> {
    const now = this.net.now;
    if (now - this.lastRateUpdate >= EXCHANGE_RATE_PERIOD_NS) {
      this.lastRateUpdate = now;
      await updateExchangeRate(this.net);
      return true;
    }
    if (now - this.lastFeeScheduleUpdate >= FEE_SCHEDULE_PERIOD_NS) {
      this.lastFeeScheduleUpdate = now;
      await updateFeeSchedule(this.net);
      return true;
    }
    return false;
  }

  private draw(kind: MixFamily): Promise<boolean> {
    const net = this.net;
    switch (kind) {
      case 'submitMessage':
        return submitMessage(net);
      case 'chunkedMessage':
        return submitChunkedMessage(net);
      case 'hbarTransfer':
        return hbarTransfer(net);
      case 'fungibleTransfer':
        return tokenTransfer(net, false);
      case 'nftTransfer':
        return tokenTransfer(net, true);
      case 'mint':
        return mint(net);
      case 'burn':
        return burn(net);
      case 'associate':
        return associate(net);
      case 'airdrop':
        return airdrop(net);
      case 'claimOrCancel':
        return claimOrCancel(net);
      case 'createAccount':
        return createAccount(net, net.random.chance(0.3) ? TREASURY : undefined);
      case 'updateAccount':
        return updateAccount(net);
      case 'deleteAccount':
        return deleteAccount(net);
      case 'approve':
        return approve(net);
      case 'spendAllowance':
        return spendAllowance(net);
      case 'deleteNftAllowance':
        return deleteNftAllowance(net);
      case 'createToken':
        return createToken(net);
      case 'createTopic':
        return createTopic(net);
      case 'createSchedule':
        return createSchedule(net);
      case 'signSchedule':
        return signSchedule(net);
      case 'callContract':
        return callContract(net, this.evm);
      case 'ethereumTransaction':
        return ethereumTransaction(net, this.evm);
      case 'deployContract':
        return deployContract(net, this.evm);
      case 'htsCall':
        return htsCall(net, this.evm);
      case 'faucet':
        return faucet(net, undefined, 1_000n * HBAR);
    }
  }
}
