import { describe, expect, it } from 'vitest';
import {
  expectedFee,
  genesisScheduleJson,
  registerFeeSuite,
  transactionBytes,
} from '../../../../test/harness/factories-fees.ts';
import { CRYPTO_CONSENSUS_FILE_CASES } from '../../../../test/harness/fee-cases-crypto.ts';
import { TOKEN_CONTRACT_NODE_CASES } from '../../../../test/harness/fee-cases-token.ts';

/**
 * Every transaction type the genesis schedule prices, with a body as a wallet builds it (payer, node, valid start,
 * keys, one to three ED25519 signatures). The expected fee is worked out from the schedule's own numbers and the
 * extras the body holds; the genesis schedule is loaded into 0.0.113, as the reference's tests load it.
 */

const genesis = genesisScheduleJson();
const CASES = [...CRYPTO_CONSENSUS_FILE_CASES, ...TOKEN_CONTRACT_NODE_CASES];

const { post } = registerFeeSuite(genesis);

describe('POST /api/v1/network/fees prices every transaction type of the genesis schedule', () => {
  it.each(
    CASES.map((test) => [test.functionality, Object.keys(test.extras ?? {}).join(' ') || 'base fee', test] as const),
  )('%s (%s) as its schedule entry says', async (_name, _extras, test) => {
    const bytes = transactionBytes(test.body, { signatures: test.signatures ?? 1 });
    const res = await post(bytes);
    expect(res.status).toBe(200);
    const expected = expectedFee(genesis, test, bytes.length);
    const isSystem = test.functionality === 'SystemDelete' || test.functionality === 'SystemUndelete';
    if (isSystem) {
      // free: only the privileged accounts that may send them can
      expect(res.body.total).toBe(0);
      return;
    }
    expect(res.body.service.base).toBe(expected.serviceBase);
    expect(res.body.service.extras.map((extra: { name: string; count: number }) => [extra.name, extra.count])).toEqual(
      expected.charged.map((extra) => [extra.name, extra.count]),
    );
    expect(BigInt(res.body.total)).toBe(expected.total);
  });

  it('covers every transaction type the genesis schedule has an entry for', () => {
    const queries = new Set([
      'ContractCallLocal',
      'ContractGetBytecode',
      'ContractGetInfo',
      'GetVersionInfo',
      'GetByKey',
    ]);
    const names = genesis.services.flatMap((service) => service.schedule.map((entry) => entry.name));
    const transactions = names.filter((name) => !/Get|Info$/.test(name) && !queries.has(name));
    expect(new Set(CASES.map((test) => test.functionality))).toEqual(new Set(transactions));
  });
});
