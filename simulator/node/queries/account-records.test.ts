/**
 * CryptoGetAccountRecords answered by a node: the records of the last three minutes that the account paid for, from
 * the node's record cache, for a query paid as any paid query is.
 */
import { describe, expect, it } from 'vitest';
import { NOW_NS, NodeClient } from '../../testing/node-client.ts';
import { DECODE_OPTIONS, nodeTypes } from '../node-proto.ts';
import { answerQuery } from './answer.ts';

type Pb = Record<string, unknown>;

/** A query's payment: a transfer from 0.0.2 giving node 0.0.3 `amount` tinybars, signed as the SDK signs it. */
function payment(client: NodeClient, amount: bigint): Pb {
  const transfer = {
    cryptoTransfer: {
      transfers: {
        accountAmounts: [
          { accountID: { accountNum: '2' }, amount: String(-amount) },
          { accountID: { accountNum: '3' }, amount: String(amount) },
        ],
      },
    },
  };
  const type = nodeTypes().Transaction;
  return type.toObject(type.decode(client.sign(transfer).bytes), DECODE_OPTIONS) as Pb;
}

async function ask(client: NodeClient, body: Pb): Promise<Pb> {
  const types = nodeTypes();
  const bytes = types.Query.encode(types.Query.fromObject({ cryptoGetAccountRecords: body })).finish();
  const answer = await answerQuery(bytes, { consensus: client.consensus, evm: client.evm, nodeId: 0, nowNs: NOW_NS });
  const decoded = types.Response.toObject(types.Response.decode(answer), { longs: String, enums: String }) as Pb;
  return decoded.cryptoGetAccountRecords as Pb;
}

describe('CryptoGetAccountRecords on a node', () => {
  it("answers the records of the transactions the account paid for, oldest first, and not others'", async () => {
    const client = new NodeClient();
    const other = await client.account();
    const ownTransfer = await client.run({
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: { accountNum: '2' }, amount: '-7' },
            { accountID: other.id, amount: '7' },
          ],
        },
      },
    });
    const cost = await ask(client, { header: { responseType: 'COST_ANSWER' }, accountID: { accountNum: '2' } });
    const price = BigInt(String((cost.header as Pb).cost));

    const answer = await ask(client, { header: { payment: payment(client, price) }, accountID: { accountNum: '2' } });

    expect((answer.header as Pb).nodeTransactionPrecheckCode).toBe('OK');
    const records = answer.records as Pb[];
    expect(records.map((record) => (record.receipt as Pb).status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(records[1]?.transactionHash).toEqual(ownTransfer.record.transactionHash);
    const otherAnswer = await ask(client, { header: { payment: payment(client, price) }, accountID: other.id });
    expect(otherAnswer.records ?? []).toEqual([]);
  });

  it('answers INVALID_ACCOUNT_ID for an account the network does not have', async () => {
    const client = new NodeClient();
    const answer = await ask(client, { header: { responseType: 'COST_ANSWER' }, accountID: { accountNum: '999999' } });
    expect((answer.header as Pb).nodeTransactionPrecheckCode).toBe('INVALID_ACCOUNT_ID');
  });
});
