import { describe, expect, it } from 'vitest';
import {
  type Adjustments,
  assessCustomFees,
  type FeeBody,
  type FeeLedger,
  type FeeToken,
} from './custom-fee-assessment.ts';
import { DispatchFailure } from './token-dispatch.ts';

const [TREASURY, SELLER, BUYER, COLLECTOR, OTHER_COLLECTOR] = [10n, 11n, 12n, 13n, 14n];
const [ART, GOLD, SILVER, COPPER, TIN] = [100n, 101n, 102n, 103n, 104n];

const token = (id: bigint, fees: Partial<Omit<FeeToken, 'id' | 'treasury'>> = {}): FeeToken => ({
  id,
  fungible: true,
  treasury: TREASURY,
  fixedFees: [],
  fractionalFees: [],
  royaltyFees: [],
  ...fees,
});
const fixed = (amount: number, collector: bigint, denomination?: bigint) => ({
  amount,
  collector_account_id: Number(collector),
  denominating_token_id: denomination === undefined ? null : Number(denomination),
});
const royalty = (numerator: number, denominator: number, collector: bigint, fallback?: object) => ({
  numerator,
  denominator,
  collector_account_id: Number(collector),
  fallback_fee: fallback ?? null,
});

/** The tokens of a test, as the run's ledger answers them; every payer may pay. */
function ledgerOf(...tokens: FeeToken[]): FeeLedger {
  const byId = new Map(tokens.map((t) => [t.id, t]));
  return {
    async token(id) {
      const found = byId.get(id);
      if (!found) throw new Error(`token ${id} not in the test`);
      return found;
    },
    async checkHbarPayer() {},
    async checkTokenPayer() {},
  };
}

const adjustments = (...pairs: [bigint, number][]): Adjustments =>
  new Map(pairs.map(([account, amount]) => [account, BigInt(amount)]));
const plain = (body: FeeBody) => ({
  hbar: Object.fromEntries([...body.hbar].map(([a, v]) => [String(a), Number(v)])),
  lists: body.lists.map((list) => ({
    token: Number(list.token),
    adjusts: Object.fromEntries([...list.adjusts].map(([a, v]) => [String(a), Number(v)])),
    nfts: list.nfts.length,
  })),
});

async function statusOf(body: FeeBody, ledger: FeeLedger): Promise<string> {
  try {
    await assessCustomFees(body, ledger);
    return 'SUCCESS';
  } catch (error) {
    if (error instanceof DispatchFailure) return error.status;
    throw error;
  }
}

/** SELLER sends ART serials to BUYER, BUYER pays SELLER `hbar` tinybars and `gold` units of Gold. */
const sale = (hbar: number, gold: number, serials = 1): FeeBody => ({
  hbar: hbar > 0 ? adjustments([BUYER, -hbar], [SELLER, hbar]) : new Map(),
  lists: [
    { token: ART, adjusts: new Map(), nfts: Array.from({ length: serials }, () => ({ from: SELLER, to: BUYER })) },
    ...(gold > 0 ? [{ token: GOLD, adjusts: adjustments([BUYER, -gold], [SELLER, gold]), nfts: [] }] : []),
  ],
});

describe('royalty fees (CustomRoyaltyFeeAssessor)', () => {
  const art = token(ART, {
    fungible: false,
    royaltyFees: [royalty(1, 10, COLLECTOR, { amount: 3, denominating_token_id: null })],
  });

  it('takes its fraction of the hbar the NFT’s sender gets back, for the collector in the next level', async () => {
    const { bodies, assessed } = await assessCustomFees(sale(1000, 0), ledgerOf(art));
    expect(assessed).toBe(1);
    // 1/10 of 1,000 comes off the seller's credit; the collector's 100 is the next level's.
    expect(bodies.map(plain)).toEqual([
      { hbar: { 12: -1000, 11: 900 }, lists: [{ token: 100, adjusts: {}, nfts: 1 }] },
      { hbar: { 13: 100 }, lists: [] },
    ]);
  });

  it('takes its fraction of each fungible value exchanged, and only once for several serials', async () => {
    const gold = token(GOLD);
    const { bodies } = await assessCustomFees(sale(55, 40, 2), ledgerOf(art, gold));
    // 1/10 of 55 ℏ rounds down to 5; 1/10 of 40 Gold is 4; the second serial charges nothing more.
    expect(bodies.map(plain)).toEqual([
      {
        hbar: { 12: -55, 11: 50 },
        lists: [
          { token: 100, adjusts: {}, nfts: 2 },
          { token: 101, adjusts: { 12: -40, 11: 36 }, nfts: 0 },
        ],
      },
      { hbar: { 13: 5 }, lists: [{ token: 101, adjusts: { 13: 4 }, nfts: 0 }] },
    ]);
  });

  it('charges the receiver the fallback, once per token, only when nothing fungible is exchanged', async () => {
    const { bodies } = await assessCustomFees(sale(0, 0, 2), ledgerOf(art));
    expect(bodies.map(plain)).toEqual([
      { hbar: {}, lists: [{ token: 100, adjusts: {}, nfts: 2 }] },
      { hbar: { 12: -3, 13: 3 }, lists: [] },
    ]);
  });

  it('charges no royalty to a sender that is the fee’s collector', async () => {
    const own = token(ART, { fungible: false, royaltyFees: [royalty(1, 10, SELLER)] });
    const { bodies, assessed } = await assessCustomFees(sale(1000, 0), ledgerOf(own));
    expect(assessed).toBe(0);
    expect(bodies.map(plain)).toEqual([plain(sale(1000, 0))]);
  });
});

describe('fees of a fee’s own denominating token (CustomFeeAssessmentStep levels)', () => {
  const send = (id: bigint, amount: number): FeeBody => ({
    hbar: new Map(),
    lists: [{ token: id, adjusts: adjustments([SELLER, -amount], [BUYER, amount]), nfts: [] }],
  });

  it('assesses a fee in another token for that token’s own fees, in the level after', async () => {
    const silver = token(SILVER, { fixedFees: [fixed(2, COLLECTOR, GOLD)] });
    const gold = token(GOLD, { fixedFees: [fixed(5, OTHER_COLLECTOR)] });
    const { bodies, assessed } = await assessCustomFees(send(SILVER, 7), ledgerOf(silver, gold));
    expect(assessed).toBe(2);
    expect(bodies.map(plain)).toEqual([
      plain(send(SILVER, 7)),
      { hbar: {}, lists: [{ token: 101, adjusts: { 11: -2, 13: 2 }, nfts: 0 }] },
      { hbar: { 11: -5, 14: 5 }, lists: [] },
    ]);
  });

  it('keeps a fee in the token’s own units in its level, where it charges nothing more', async () => {
    const gold = token(GOLD, { fixedFees: [fixed(2, COLLECTOR, GOLD)] });
    const { bodies } = await assessCustomFees(send(GOLD, 7), ledgerOf(gold));
    expect(bodies.map(plain)).toEqual([
      { hbar: {}, lists: [{ token: 101, adjusts: { 11: -9, 12: 7, 13: 2 }, nfts: 0 }] },
    ]);
  });

  it('takes a fractional fee of the next level’s fee payment, the collectors exempt', async () => {
    const silver = token(SILVER, { fixedFees: [fixed(40, BUYER, GOLD)] });
    const gold = token(GOLD, {
      fractionalFees: [
        {
          numerator: 1,
          denominator: 20,
          minimum_amount: 0,
          maximum_amount: 0,
          net_of_transfers: false,
          collector_account_id: Number(COLLECTOR),
        },
      ],
    });
    const { bodies } = await assessCustomFees(send(SILVER, 7), ledgerOf(silver, gold));
    // The 40 Gold the buyer collects at level 1 gives up 1/20 (2) to Gold's collector.
    expect(bodies.map(plain)[1]).toEqual({
      hbar: {},
      lists: [{ token: 101, adjusts: { 11: -40, 12: 38, 13: 2 }, nfts: 0 }],
    });
  });

  it('answers CUSTOM_FEE_CHARGING_EXCEEDED_MAX_RECURSION_DEPTH past two levels of fees', async () => {
    const copper = token(COPPER, { fixedFees: [fixed(1, COLLECTOR, TIN)] });
    const silver = token(SILVER, { fixedFees: [fixed(1, COLLECTOR, COPPER)] });
    const gold = token(GOLD, { fixedFees: [fixed(1, COLLECTOR, SILVER)] });
    const tin = token(TIN);
    // Gold's fee in Silver (level 1), Silver's in Copper (level 2), Copper's in Tin: a third level.
    expect(await statusOf(send(GOLD, 7), ledgerOf(gold, silver, copper, tin))).toBe(
      'CUSTOM_FEE_CHARGING_EXCEEDED_MAX_RECURSION_DEPTH',
    );
    const hbarCopper = token(COPPER, { fixedFees: [fixed(1, COLLECTOR)] });
    expect(await statusOf(send(GOLD, 7), ledgerOf(gold, silver, hbarCopper))).toBe('SUCCESS');
  });

  it('answers CUSTOM_FEE_CHARGING_EXCEEDED_MAX_ACCOUNT_AMOUNTS past 20 balance changes', async () => {
    const collectors = Array.from({ length: 10 }, (_, i) => 200n + BigInt(i));
    const gold = token(GOLD, { fixedFees: collectors.map((collector) => fixed(1, collector)) });
    const fanOut = (receivers: number): FeeBody => ({
      hbar: new Map(),
      lists: [
        {
          token: GOLD,
          adjusts: adjustments(
            [SELLER, -receivers],
            ...Array.from({ length: receivers }, (_, i): [bigint, number] => [300n + BigInt(i), 1]),
          ),
          nfts: [],
        },
      ],
    });
    // 1 + 8 Gold adjustments and 11 hbar ones (the seller and ten collectors) are 20; one more receiver is 21.
    expect(await statusOf(fanOut(8), ledgerOf(gold))).toBe('SUCCESS');
    expect(await statusOf(fanOut(9), ledgerOf(gold))).toBe('CUSTOM_FEE_CHARGING_EXCEEDED_MAX_ACCOUNT_AMOUNTS');
  });

  it('exempts every collector of a token from a fee that exempts all collectors', async () => {
    const gold = token(GOLD, {
      fixedFees: [fixed(5, COLLECTOR), { ...fixed(6, OTHER_COLLECTOR), all_collectors_are_exempt: true }],
    });
    const body: FeeBody = {
      hbar: new Map(),
      lists: [{ token: GOLD, adjusts: adjustments([COLLECTOR, -7], [BUYER, 7]), nfts: [] }],
    };
    const { bodies } = await assessCustomFees(body, ledgerOf(gold));
    // The collector of the 5 ℏ fee sends: it pays neither its own fee nor the one exempting all collectors.
    expect(bodies.map(plain)).toEqual([plain(body)]);
  });
});
