import { describe, expect, it } from 'vitest';
import { hapi } from '../../proto/hapi.ts';
import type { ExchangeRate } from '../../workers/evm/system/exchange-rate-file.ts';
import { feeScheduleOf } from '../../workers/evm/system/fee-schedule-file.ts';
import { hapiFeeTinybars } from '../../workers/evm/system/hapi-fee.ts';
import {
  type BodyUsage,
  burnUsage,
  deleteUsage,
  dissociateUsage,
  flagUsage,
  kycUsage,
  mintUsage,
  transferUsage,
  wipeUsage,
} from '../../workers/evm/system/hapi-fee-usage.ts';
import { CANONICAL_TINYCENTS, gasRequirement } from '../../workers/evm/system/hts-gas.ts';
import type { BlockContext } from '../../workers/evm/types.ts';
import { decodeMessage } from '../../workers/format/protobuf-strict.ts';
import { CURRENT_AND_NEXT_FEE_SCHEDULE } from '../../workers/routes/network/system-file-schemas.ts';
import { feeScheduleFileContents } from './fee-schedule.ts';

const NOW = 1_735_689_600_000_000_000n;
const DAY = 86_400n;
const decoded = () => hapi().root.lookupType('proto.CurrentAndNextFeeSchedule').decode(feeScheduleFileContents(NOW));
// biome-ignore lint/suspicious/noExplicitAny: the decoded protobuf message, read field by field
type Plain = any;

describe('the simulated fee schedule file 0.0.111', () => {
  it('prices every functionality of the node genesis schedule, with its subtypes, in both schedules', () => {
    const schedule = decoded().toJSON() as Plain;
    const entries = (part: Plain) =>
      part.transactionFeeSchedule.map((entry: Plain) => [
        entry.hederaFunctionality,
        entry.fees.map((fee: Plain) => fee.subType ?? 'DEFAULT'),
      ]);
    const current = entries(schedule.currentFeeSchedule);
    expect(current).toHaveLength(73);
    expect(entries(schedule.nextFeeSchedule)).toEqual(current);
    expect(new Set(current.map(([name]: [string]) => name)).size).toBe(73);
    expect(Object.fromEntries(current)).toMatchObject({
      CryptoTransfer: [
        'DEFAULT',
        'TOKEN_FUNGIBLE_COMMON',
        'TOKEN_FUNGIBLE_COMMON_WITH_CUSTOM_FEES',
        'TOKEN_NON_FUNGIBLE_UNIQUE',
        'TOKEN_NON_FUNGIBLE_UNIQUE_WITH_CUSTOM_FEES',
      ],
      TokenMint: ['TOKEN_FUNGIBLE_COMMON', 'TOKEN_NON_FUNGIBLE_UNIQUE'],
      ConsensusCreateTopic: ['DEFAULT', 'TOPIC_CREATE_WITH_CUSTOM_FEES'],
      EthereumTransaction: ['DEFAULT'],
      ContractCall: ['DEFAULT'],
      AtomicBatch: ['DEFAULT'],
    });
    expect(BigInt(schedule.currentFeeSchedule.expiryTime.seconds)).toBe((NOW / 1_000_000_000n / DAY + 1n) * DAY);
    expect(BigInt(schedule.nextFeeSchedule.expiryTime.seconds)).toBe((NOW / 1_000_000_000n / DAY + 2n) * DAY);
  });

  it('gives the contract functionalities the node gas price, $0.000_000_0852 a gas, as the service price', () => {
    const schedule = decoded().toJSON() as Plain;
    const gas = schedule.currentFeeSchedule.transactionFeeSchedule
      .filter((entry: Plain) => entry.fees[0].servicedata.gas !== undefined)
      .map((entry: Plain) => [entry.hederaFunctionality, entry.fees[0].servicedata.gas]);
    expect(gas).toEqual([
      ['ContractCreate', '852000'],
      ['ContractCall', '852000'],
      ['EthereumTransaction', '852000'],
      ['ContractCallLocal', '852000'],
    ]);
  });

  /**
   * The node charges a system contract's token dispatch the larger of its canonical price and the body's fee under
   * 0.0.111. The simulator's model charges the canonical price, so at any rate the fee must not exceed it.
   */
  it('leaves the canonical price standing for every token dispatch a contract of the network makes', () => {
    const file = { timestamp: NOW, data: decodeMessage(feeScheduleFileContents(NOW), CURRENT_AND_NEXT_FEE_SCHEDULE) };
    const schedule = feeScheduleOf(file, { consensusStart: NOW } as BlockContext);
    const transfer = { hbarAdjusts: 0, tokenLists: 1, unitAdjusts: 0, nftExchanges: 0, customFees: false };
    const dispatches: [string, bigint, BodyUsage][] = [
      ['a transfer of units', CANONICAL_TINYCENTS.TRANSFER_FUNGIBLE, transferUsage({ ...transfer, unitAdjusts: 2 })],
      ['a transfer of an NFT', CANONICAL_TINYCENTS.TRANSFER_NFT, transferUsage({ ...transfer, nftExchanges: 1 })],
      ['a mint of units', CANONICAL_TINYCENTS.MINT_FUNGIBLE, mintUsage(1_000n, 0)],
      ['a mint of NFTs', CANONICAL_TINYCENTS.MINT_NFT, mintUsage(0n, 3)],
      ['a burn of units', CANONICAL_TINYCENTS.BURN_FUNGIBLE, burnUsage(0)],
      ['a burn of NFTs', CANONICAL_TINYCENTS.BURN_NFT, burnUsage(3)],
      ['a wipe of units', CANONICAL_TINYCENTS.WIPE_FUNGIBLE, wipeUsage(0, true)],
      ['a wipe of NFTs', CANONICAL_TINYCENTS.WIPE_NFT, wipeUsage(3, false)],
      ['a freeze', CANONICAL_TINYCENTS.FREEZE, flagUsage('TokenFreezeAccount')],
      ['an unfreeze', CANONICAL_TINYCENTS.UNFREEZE, flagUsage('TokenUnfreezeAccount')],
      ['a pause', CANONICAL_TINYCENTS.PAUSE, flagUsage('TokenPause')],
      ['an unpause', CANONICAL_TINYCENTS.UNPAUSE, flagUsage('TokenUnpause')],
      ['a KYC grant', CANONICAL_TINYCENTS.GRANT_KYC, kycUsage('TokenGrantKycToAccount')],
      ['a KYC revocation', CANONICAL_TINYCENTS.REVOKE_KYC, kycUsage('TokenRevokeKycFromAccount')],
      ['a deletion', CANONICAL_TINYCENTS.DELETE, deleteUsage()],
      ['a dissociation', CANONICAL_TINYCENTS.DISSOCIATE, dissociateUsage(1, true)],
    ];
    // 12 cents an hbar (genesis), and the ends of the simulator's range, 5 and 30 cents
    const rates: ExchangeRate[] = [
      { hbarEquiv: 1n, centEquiv: 12n },
      { hbarEquiv: 30_000n, centEquiv: 150_000n },
      { hbarEquiv: 30_000n, centEquiv: 900_000n },
    ];
    for (const rate of rates) {
      for (const [label, canonical, body] of dispatches) {
        const fee = hapiFeeTinybars(body, schedule, rate);
        expect(fee, label).toBeGreaterThan(300n);
        expect(gasRequirement(canonical, fee, rate), label).toBe(gasRequirement(canonical, 0n, rate));
      }
    }
  });
});
