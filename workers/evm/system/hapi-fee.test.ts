import { describe, expect, it } from 'vitest';
import type { FeeComponents, FeeData, FeeSchedule } from './fee-schedule-file.ts';
import { hapiFeeTinybars } from './hapi-fee.ts';
import {
  burnUsage,
  dissociateUsage,
  flagUsage,
  kycUsage,
  mintUsage,
  SUB_TYPE,
  transferUsage,
  wipeUsage,
} from './hapi-fee-usage.ts';
import { CANONICAL_TINYCENTS, gasRequirement, transferTinycents } from './hts-gas.ts';

const NONE: FeeComponents = {
  min: 0n,
  max: 1_000_000_000_000_000n,
  constant: 0n,
  bpt: 0n,
  vpt: 0n,
  rbh: 0n,
  sbh: 0n,
  gas: 0n,
  bpr: 0n,
  sbpr: 0n,
};
const prices = (node: Partial<FeeComponents>, network: Partial<FeeComponents>, service: Partial<FeeComponents>) => ({
  node: { ...NONE, ...node },
  network: { ...NONE, ...network },
  service: { ...NONE, ...service },
});

/** $0.02 a metadata, as the node's schedule prices an NFT mint through `bpt`: 2e11 fee units a byte in all. */
const NFT_MINT = prices({ bpt: 20_000_000_000n }, { bpt: 180_000_000_000n }, {});
/** Dissociations priced by their entity ids: node and network by bytes, the service by its constant. */
const DISSOCIATE = prices({ bpt: 200_000_000n }, { bpt: 800_000_000n }, { constant: 100_000_000_000n, rbh: 0n });
const TOKEN_TRANSFER = prices({ constant: 10_000_000_000n, bpt: 1_000_000n }, { bpt: 4_000_000n }, { rbh: 10_000n });

/** FeeManager's DEFAULT_FEE_DATA where the schedule has no entry: every provider clamped to 100,000 units. */
const DEFAULT_PRICES = prices(
  { min: 100_000n, max: 100_000n },
  { min: 100_000n, max: 100_000n },
  { min: 100_000n, max: 100_000n },
);
const scheduleOf =
  (entries: Record<string, FeeData>): FeeSchedule =>
  (functionality, subType) =>
    entries[`${functionality}/${subType}`] ?? DEFAULT_PRICES;
const schedule = scheduleOf({ '65/2': NFT_MINT, '1/1': TOKEN_TRANSFER, '69/0': DISSOCIATE });
const RATE = { hbarEquiv: 1n, centEquiv: 12n };

describe('the HAPI fee of a synthetic body', () => {
  it('counts what a child dispatch of each body uses', () => {
    // BASIC_TX_BODY_SIZE 76 bytes, a 132-byte record and a 36-byte receipt kept 180 s, a 4-byte response.
    expect(mintUsage(5n, 0)).toEqual({
      functionality: 65,
      subType: SUB_TYPE.TOKEN_FUNGIBLE_COMMON,
      pricing: 'accumulator',
      usage: {
        bpt: 108n,
        vpt: 0n,
        bpr: 4n,
        sbpr: 0n,
        rbs: 23_760n,
        sbs: 0n,
        networkRbs: 16_560n,
        gas: 0n,
        payerKeys: 0n,
      },
    });
    // An NFT mint counts its metadata alone.
    expect(mintUsage(0n, 10).usage).toEqual({
      bpt: 10n,
      vpt: 0n,
      bpr: 0n,
      sbpr: 0n,
      rbs: 0n,
      sbs: 0n,
      networkRbs: 0n,
      gas: 0n,
      payerKeys: 0n,
    });
    // Three serials: 24 + 24 bytes of body, a token id and three 56-byte NFT transfers recorded.
    expect(burnUsage(3)).toMatchObject({ subType: SUB_TYPE.TOKEN_NON_FUNGIBLE_UNIQUE, usage: { bpt: 124n } });
    expect(burnUsage(3).usage.networkRbs).toBe(180n * 36n + 180n * (24n + 3n * 56n));
    // A wipe takes the entry of the token's type whatever its body holds.
    expect(wipeUsage(0, false).subType).toBe(SUB_TYPE.TOKEN_NON_FUNGIBLE_UNIQUE);
    expect(wipeUsage(0, true)).toMatchObject({ functionality: 67, usage: { bpt: 108n } });
    // One token list of ten adjustments, weighted 380 times: 76 + 380·24 + 3800·32 bytes.
    const ten = transferUsage({ hbarAdjusts: 0, tokenLists: 1, unitAdjusts: 10, nftExchanges: 0, customFees: false });
    expect(ten).toMatchObject({ functionality: 1, subType: SUB_TYPE.TOKEN_FUNGIBLE_COMMON });
    expect([ten.usage.bpt, ten.usage.rbs]).toEqual([130_796n, 23_553_360n]);
    const custom = transferUsage({ hbarAdjusts: 0, tokenLists: 1, unitAdjusts: 0, nftExchanges: 2, customFees: true });
    expect(custom.subType).toBe(SUB_TYPE.TOKEN_NON_FUNGIBLE_UNIQUE_WITH_CUSTOM_FEES);
    // A freeze names a token and an account, a pause a token: 48 and 24 bytes on the base body, DEFAULT entries.
    expect(flagUsage('TokenFreezeAccount')).toMatchObject({ functionality: 59, subType: 0, usage: { bpt: 124n } });
    expect(flagUsage('TokenUnpause')).toMatchObject({ functionality: 80, subType: 0, usage: { bpt: 100n } });
    const hbar = transferUsage({ hbarAdjusts: 2, tokenLists: 0, unitAdjusts: 0, nftExchanges: 0, customFees: false });
    expect(hbar).toMatchObject({ subType: SUB_TYPE.DEFAULT, usage: { bpt: 140n } });
  });

  it('estimates entity-id bodies as a usage matrix, a missing account as the constants alone', () => {
    // 76 bytes of body and 48 of ids; the receipt's 6,480 byte-seconds and the record's 23,760 in whole hours.
    expect(kycUsage('TokenGrantKycToAccount')).toEqual({
      functionality: 61,
      subType: SUB_TYPE.DEFAULT,
      pricing: 'estimator',
      matrix: {
        network: { constant: 1n, bpt: 124n, rbh: 1n },
        node: { constant: 1n, bpt: 124n, bpr: 4n },
        service: { constant: 1n, rbh: 6n },
      },
    });
    expect(dissociateUsage(20, true)).toMatchObject({ functionality: 69, matrix: { node: { bpt: 580n } } });
    expect(dissociateUsage(20, false)).toMatchObject({
      matrix: { network: { constant: 1n }, node: { constant: 1n }, service: { constant: 1n } },
    });
  });

  it('prices usage per provider, each rounded down to tinycents and tinybars', () => {
    // Ten metadata: node 10·2e10/1000 = 2e8 tinycents, network 1.8e9; at 1 ℏ = 12 ¢, 16,666,666 + 150,000,000 ℏ.
    expect(hapiFeeTinybars(mintUsage(0n, 10), schedule, RATE)).toBe(166_666_666n);
    // Ten adjustments: node (1e10 + 130,796·1e6)/1000 = 140,796,000 tinycents, network 523,184,000, service
    // 6,542 hours of 23,553,360 byte-seconds at 10 units: 65,420; in tinybars 11,733,000 + 43,598,666 + 5,451.
    const ten = transferUsage({ hbarAdjusts: 0, tokenLists: 1, unitAdjusts: 10, nftExchanges: 0, customFees: false });
    expect(hapiFeeTinybars(ten, schedule, RATE)).toBe(55_337_117n);
    // FeeBuilder: one token, 124 bytes: node 2.48e10/1000, network 9.92e10/1000, service the constant 1e11/1000;
    // 2,066,666 + 8,266,666 + 8,333,333 ℏ. With no account, the service constant alone.
    expect(hapiFeeTinybars(dissociateUsage(1, true), schedule, RATE)).toBe(18_666_665n);
    expect(hapiFeeTinybars(dissociateUsage(1, false), schedule, RATE)).toBe(8_333_333n);
  });

  it('costs the default prices where the schedule has no entry, so the canonical price stands', () => {
    // 100 tinycents a provider: 8 ℏ each at 1 ℏ = 12 ¢.
    expect(hapiFeeTinybars(mintUsage(5n, 0), schedule, RATE)).toBe(24n);
    expect(gasRequirement(CANONICAL_TINYCENTS.MINT_FUNGIBLE, 24n, RATE)).toBe(15_284n);
  });

  it('charges the larger of the canonical price and the fee as gas', () => {
    // One NFT: 16,666,666 ℏ is 199,999,992 tinycents, below the canonical 200,000,000: 235,741 gas plus a fifth
    // (the node rounds up as (price + 851,999)·1000 / 852,000).
    const one = hapiFeeTinybars(mintUsage(0n, 1), schedule, RATE);
    expect(gasRequirement(CANONICAL_TINYCENTS.MINT_NFT, one, RATE)).toBe(282_889n);
    // Ten NFTs: 1,999,999,992 tinycents is 2,348,417 gas, plus a fifth.
    const tenNfts = hapiFeeTinybars(mintUsage(0n, 10), schedule, RATE);
    expect(gasRequirement(CANONICAL_TINYCENTS.MINT_NFT, tenNfts, RATE)).toBe(2_818_100n);
    // Ten adjustments: 55,337,117 ℏ is 664,045,404 tinycents against the canonical 50,000,000: 780,396 gas.
    const shape = { hbarAdjusts: 0, unitAdjusts: 10, nftExchanges: 0, customFees: false, lazyCreations: 0 };
    const body = transferUsage({ ...shape, tokenLists: 1 });
    expect(transferTinycents(shape)).toBe(50_000_000n);
    expect(gasRequirement(transferTinycents(shape), hapiFeeTinybars(body, schedule, RATE), RATE)).toBe(936_475n);
    // Dissociating one token costs 223,999,980 tinycents, below the canonical $0.05; twenty, 679,999,980, above it.
    const dissociate = (tokens: number) =>
      gasRequirement(
        CANONICAL_TINYCENTS.DISSOCIATE,
        hapiFeeTinybars(dissociateUsage(tokens, true), schedule, RATE),
        RATE,
      );
    expect([dissociate(1), dissociate(20)]).toEqual([705_424n, 958_946n]);
  });
});
