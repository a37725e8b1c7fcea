/**
 * Custom fees charged by a node: a token's fixed, fractional and royalty fees on transfers (with the treasury and the
 * collector exempt), and a HIP-991 topic's fixed fees on messages (a fee-exempt key's signature and the payer's
 * limits), each in the record's transfer lists and `assessed_custom_fees` and in the ledger model.
 */
import { describe, expect, it } from 'vitest';
import { edKey, NodeClient, type TestKey } from '../testing/node-client.ts';

type Pb = Record<string, unknown>;
type Party = { num: bigint; key: TestKey; id: Pb };

/** A treasury and two accounts that associate with any token they receive. */
async function treasuryAndTwoHolders(client: NodeClient): Promise<[Party, Party, Party]> {
  const open = { max_automatic_token_associations: -1 };
  return [await client.account(), await client.account(open), await client.account(open)];
}

async function tokenWithFees(client: NodeClient, treasury: Party, fees: Pb[], extra: Pb = {}) {
  const { status, receipt } = await client.run(
    {
      tokenCreation: {
        name: 'T',
        symbol: 'T',
        initialSupply: '100000',
        treasury: treasury.id,
        custom_fees: fees,
        ...extra,
      },
    },
    [treasury.key.privateKey],
  );
  expect(status).toBe('SUCCESS');
  return receipt.tokenID as Pb;
}

const move = (token: Pb, from: Party, to: Party, amount: number) => ({
  token,
  transfers: [
    { accountID: from.id, amount: String(-amount) },
    { accountID: to.id, amount: String(amount) },
  ],
});

async function give(client: NodeClient, token: Pb, from: Party, to: Party, amount: number) {
  const result = await client.run({ cryptoTransfer: { tokenTransfers: [move(token, from, to, amount)] } }, [
    from.key.privateKey,
  ]);
  expect(result.status).toBe('SUCCESS');
  return result;
}

describe('token custom fees on a node', () => {
  it('charges a fixed hbar fee to a sender that is not the treasury, and a fractional fee from what the receiver gets', async () => {
    const client = new NodeClient();
    const [treasury, alice, bob] = await treasuryAndTwoHolders(client);
    const token = await tokenWithFees(client, treasury, [
      { fixed_fee: { amount: '1000' }, fee_collector_account_id: treasury.id },
      {
        fractional_fee: { fractional_amount: { numerator: '1', denominator: '10' }, minimum_amount: '1' },
        fee_collector_account_id: treasury.id,
      },
    ]);
    const exempt = await give(client, token, treasury, alice, 500);
    expect(exempt.record.assessed_custom_fees).toBeUndefined();

    const hbarBefore = client.net.ledger.account(alice.num).balance;
    const { record } = await give(client, token, alice, bob, 200);
    const num = BigInt(String(token.tokenNum));
    expect(client.net.ledger.tokenBalance(bob.num, num)).toBe(180n);
    expect(client.net.ledger.tokenBalance(treasury.num, num)).toBe(100000n - 500n + 20n);
    // The operator pays the transaction fee; Alice, the sender, pays the fixed fee.
    expect(hbarBefore - client.net.ledger.account(alice.num).balance).toBe(1000n);
    expect(record.assessed_custom_fees).toEqual([
      { amount: '1000', fee_collector_account_id: treasury.id, effective_payer_account_id: [alice.id] },
      { amount: '20', token_id: token, fee_collector_account_id: treasury.id, effective_payer_account_id: [bob.id] },
    ]);
  });

  it('adds a net-of-transfers fractional fee to what the sender pays, within its minimum and maximum', async () => {
    const client = new NodeClient();
    const [treasury, alice, bob] = await treasuryAndTwoHolders(client);
    const token = await tokenWithFees(client, treasury, [
      {
        fractional_fee: {
          fractional_amount: { numerator: '1', denominator: '2' },
          minimum_amount: '1',
          maximum_amount: '7',
          net_of_transfers: true,
        },
        fee_collector_account_id: treasury.id,
      },
    ]);
    await give(client, token, treasury, alice, 100);
    await give(client, token, alice, bob, 50);
    const num = BigInt(String(token.tokenNum));
    expect(client.net.ledger.tokenBalance(bob.num, num)).toBe(50n);
    expect(client.net.ledger.tokenBalance(alice.num, num)).toBe(100n - 50n - 7n);
  });

  it("takes a royalty from the hbar an NFT's seller receives, and the fallback fee from a receiver who paid nothing", async () => {
    const client = new NodeClient();
    const [treasury, seller, buyer] = await treasuryAndTwoHolders(client);
    const supply = edKey();
    const created = await client.run(
      {
        tokenCreation: {
          name: 'Art',
          symbol: 'A',
          tokenType: 1,
          treasury: treasury.id,
          supplyKey: { ed25519: supply.publicKey },
          custom_fees: [
            {
              royalty_fee: {
                exchange_value_fraction: { numerator: '1', denominator: '10' },
                fallback_fee: { amount: '500' },
              },
              fee_collector_account_id: treasury.id,
            },
          ],
        },
      },
      [treasury.key.privateKey],
    );
    const token = created.receipt.tokenID as Pb;
    await client.run({ tokenMint: { token, metadata: [Buffer.from('a'), Buffer.from('b')] } }, [supply.privateKey]);
    const nft = (serial: string, from: Party, to: Party) => ({
      token,
      nftTransfers: [{ senderAccountID: from.id, receiverAccountID: to.id, serialNumber: serial }],
    });
    await client.run({ cryptoTransfer: { tokenTransfers: [nft('1', treasury, seller), nft('2', treasury, seller)] } }, [
      treasury.key.privateKey,
      seller.key.privateKey,
    ]);

    const sale = await client.run(
      {
        cryptoTransfer: {
          transfers: {
            accountAmounts: [
              { accountID: buyer.id, amount: '-10000' },
              { accountID: seller.id, amount: '10000' },
            ],
          },
          tokenTransfers: [nft('1', seller, buyer)],
        },
      },
      [seller.key.privateKey, buyer.key.privateKey],
    );
    expect(sale.status).toBe('SUCCESS');
    expect(sale.record.assessed_custom_fees).toEqual([
      { amount: '1000', fee_collector_account_id: treasury.id, effective_payer_account_id: [seller.id] },
    ]);

    const gift = { cryptoTransfer: { tokenTransfers: [nft('2', seller, buyer)] } };
    expect((await client.run(gift, [seller.key.privateKey])).status).toBe('INVALID_SIGNATURE');
    const fallback = await client.run(gift, [seller.key.privateKey, buyer.key.privateKey]);
    expect(fallback.record.assessed_custom_fees).toEqual([
      { amount: '500', fee_collector_account_id: treasury.id, effective_payer_account_id: [buyer.id] },
    ]);
  });
});

describe('HIP-991 topic fees on a node', () => {
  async function paidTopic(client: NodeClient, exemptKey: TestKey) {
    const collector = await client.account();
    const { receipt } = await client.run({
      consensusCreateTopic: {
        fee_schedule_key: { ed25519: edKey().publicKey },
        fee_exempt_key_list: [{ ed25519: exemptKey.publicKey }],
        custom_fees: [{ fixed_fee: { amount: '700' }, fee_collector_account_id: collector.id }],
      },
    });
    return { topicID: receipt.topicID as Pb, collector };
  }

  it("charges a submitter the topic's fee, and not one a fee-exempt key signed for", async () => {
    const client = new NodeClient();
    const exemptKey = edKey();
    const { topicID, collector } = await paidTopic(client, exemptKey);
    const submitter = await client.account();
    const message = { consensusSubmitMessage: { topicID, message: Buffer.from('hi') } };

    const paid = await client.run(message, [submitter.key.privateKey], submitter.num);
    expect(paid.record.assessed_custom_fees).toEqual([
      { amount: '700', fee_collector_account_id: collector.id, effective_payer_account_id: [submitter.id] },
    ]);
    expect(client.net.ledger.account(collector.num).balance).toBe(100n * 100_000_000n + 700n);
    const free = await client.run(message, [submitter.key.privateKey, exemptKey.privateKey], submitter.num);
    expect(free.status).toBe('SUCCESS');
    expect(free.record.assessed_custom_fees).toBeUndefined();
  });

  it("refuses a submission whose payer's limit is below the fee, or names no limit for its denomination", async () => {
    const client = new NodeClient();
    const { topicID } = await paidTopic(client, edKey());
    const submitter = await client.account();
    const limited = (fees: Pb[]) => ({
      consensusSubmitMessage: { topicID, message: Buffer.from('hi') },
      max_custom_fees: [{ account_id: submitter.id, fees }],
    });

    const low = await client.run(limited([{ amount: '699' }]), [submitter.key.privateKey], submitter.num);
    expect(low.status).toBe('MAX_CUSTOM_FEE_LIMIT_EXCEEDED');
    const other = await client.run(
      limited([{ amount: '1000', denominating_token_id: { tokenNum: '5' } }]),
      [submitter.key.privateKey],
      submitter.num,
    );
    expect(other.status).toBe('NO_VALID_MAX_CUSTOM_FEE');
    const enough = await client.run(limited([{ amount: '700' }]), [submitter.key.privateKey], submitter.num);
    expect(enough.status).toBe('SUCCESS');
  });
});
