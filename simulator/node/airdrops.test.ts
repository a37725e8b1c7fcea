/**
 * Airdrops submitted to a node as signed bytes: delivered at once to an associated receiver, pending for one without
 * a free slot (listed in the record's new_pending_airdrops with the amount now pending), claimed by the receiver,
 * cancelled by the sender, and refused with the node's codes.
 */
import { describe, expect, it } from 'vitest';
import { edKey, NodeClient, type TestKey } from '../testing/node-client.ts';

type Pb = Record<string, unknown>;

async function setUp() {
  const client = new NodeClient();
  const sender = await client.account();
  const [associated, stranger] = [await client.account(), await client.account()];
  const created = await client.run(
    { tokenCreation: { name: 'Drop', symbol: 'D', initialSupply: '1000', treasury: sender.id } },
    [sender.key.privateKey],
  );
  const token = created.receipt.tokenID as Pb;
  const associate = await client.run({ tokenAssociate: { account: associated.id, tokens: [token] } }, [
    associated.key.privateKey,
  ]);
  expect(associate.status).toBe('SUCCESS');
  return { client, sender, associated, stranger, token, num: BigInt(String(token.tokenNum)) };
}

const drop = (token: Pb, sender: Pb, receivers: [Pb, number][]) => ({
  tokenAirdrop: {
    token_transfers: [
      {
        token,
        transfers: [
          { accountID: sender, amount: String(-receivers.reduce((sum, [, amount]) => sum + amount, 0)) },
          ...receivers.map(([accountID, amount]) => ({ accountID, amount: String(amount) })),
        ],
      },
    ],
  },
});

const pendingId = (sender: Pb, receiver: Pb, token: Pb) => ({
  sender_id: sender,
  receiver_id: receiver,
  fungible_token_type: token,
});

/** The tinybars `tinycents` buy at the network's current rate. */
const tinybars = (client: NodeClient, tinycents: bigint) => {
  const { hbarEquiv, centEquiv } = client.net.ledger.exchangeRate;
  return (tinycents * BigInt(hbarEquiv) + BigInt(centEquiv) - 1n) / BigInt(centEquiv);
};

describe('airdrops on a node', () => {
  it('charges the payer $0.1 for each new pending airdrop (its fee and the association it prepays), $0.05 for one already pending', async () => {
    const { client, sender, associated, stranger, token } = await setUp();
    const fee = async (receiver: Pb) => {
      const { status, record } = await client.run(drop(token, sender.id, [[receiver, 1]]), [sender.key.privateKey]);
      expect(status).toBe('SUCCESS');
      return BigInt(String(record.transactionFee));
    };
    const delivered = await fee(associated.id);
    const created = await fee(stranger.id);
    const topped = await fee(stranger.id);

    expect(created - delivered).toBe(tinybars(client, 1_000_000_000n));
    expect(topped - delivered).toBe(tinybars(client, 500_000_000n));
  });

  it('delivers to an associated receiver at once and leaves the rest pending, with the amount now pending', async () => {
    const { client, sender, associated, stranger, token, num } = await setUp();
    const first = await client.run(
      drop(token, sender.id, [
        [associated.id, 10],
        [stranger.id, 20],
      ]),
      [sender.key.privateKey],
    );

    expect(first.status).toBe('SUCCESS');
    expect((first.record.tokenTransferLists as Pb[])[0]?.transfers).toEqual([
      { accountID: sender.id, amount: '-10' },
      { accountID: associated.id, amount: '10' },
    ]);
    expect(first.record.new_pending_airdrops).toEqual([
      { pending_airdrop_id: pendingId(sender.id, stranger.id, token), pending_airdrop_value: { amount: '20' } },
    ]);
    expect(client.net.ledger.tokenBalance(associated.num, num)).toBe(10n);
    expect(client.net.ledger.tokenBalance(sender.num, num)).toBe(990n);

    const second = await client.run(drop(token, sender.id, [[stranger.id, 5]]), [sender.key.privateKey]);
    expect((second.record.new_pending_airdrops as Pb[])[0]?.pending_airdrop_value).toEqual({ amount: '25' });
    // What a client's airdrop leaves pending stays out of what the generated load settles.
    expect(client.net.ledger.airdropKeys.size).toBe(0);
  });

  it('delivers a pending airdrop to the receiver that claims it, associating it, and only once', async () => {
    const { client, sender, stranger, token, num } = await setUp();
    await client.run(drop(token, sender.id, [[stranger.id, 30]]), [sender.key.privateKey]);
    const claim = { tokenClaimAirdrop: { pending_airdrops: [pendingId(sender.id, stranger.id, token)] } };

    expect((await client.run(claim)).status).toBe('INVALID_SIGNATURE');
    const { status, record } = await client.run(claim, [stranger.key.privateKey]);
    expect(status).toBe('SUCCESS');
    expect(record.automatic_token_associations).toEqual([{ token_id: token, account_id: stranger.id }]);
    expect(client.net.ledger.tokenBalance(stranger.num, num)).toBe(30n);
    expect((await client.run(claim, [stranger.key.privateKey])).status).toBe('INVALID_PENDING_AIRDROP_ID');
  });

  it('drops a pending airdrop the sender cancels, the tokens staying with the sender', async () => {
    const { client, sender, stranger, token, num } = await setUp();
    await client.run(drop(token, sender.id, [[stranger.id, 30]]), [sender.key.privateKey]);
    const cancel = { tokenCancelAirdrop: { pending_airdrops: [pendingId(sender.id, stranger.id, token)] } };

    expect((await client.run(cancel)).status).toBe('INVALID_SIGNATURE');
    expect((await client.run(cancel, [sender.key.privateKey])).status).toBe('SUCCESS');
    expect(client.net.ledger.pendingAirdrops.size).toBe(0);
    expect(client.net.ledger.tokenBalance(sender.num, num)).toBe(1000n);
  });

  it('airdrops an NFT pending once, and refuses a second airdrop of the same serial', async () => {
    const client = new NodeClient();
    const [sender, receiver] = [await client.account(), await client.account()];
    const supply: TestKey = edKey();
    const created = await client.run(
      {
        tokenCreation: {
          name: 'Art',
          symbol: 'A',
          tokenType: 1,
          treasury: sender.id,
          supplyKey: { ed25519: supply.publicKey },
        },
      },
      [sender.key.privateKey],
    );
    const token = created.receipt.tokenID as Pb;
    await client.run({ tokenMint: { token, metadata: [Buffer.from('a')] } }, [supply.privateKey]);
    const nftDrop = {
      tokenAirdrop: {
        token_transfers: [
          { token, nftTransfers: [{ senderAccountID: sender.id, receiverAccountID: receiver.id, serialNumber: '1' }] },
        ],
      },
    };

    const first = await client.run(nftDrop, [sender.key.privateKey]);
    expect(first.record.new_pending_airdrops).toEqual([
      {
        pending_airdrop_id: {
          sender_id: sender.id,
          receiver_id: receiver.id,
          non_fungible_token: { token_ID: token, serial_number: '1' },
        },
      },
    ]);
    expect((await client.run(nftDrop, [sender.key.privateKey])).status).toBe('PENDING_NFT_AIRDROP_ALREADY_EXISTS');
  });

  it('refuses empty and repeated pending airdrop lists at precheck, and two senders of one token', async () => {
    const { client, sender, associated, stranger, token } = await setUp();
    const id = pendingId(sender.id, stranger.id, token);
    expect(client.submit(client.sign({ tokenClaimAirdrop: { pending_airdrops: [] } }).bytes)).toBe(
      'EMPTY_PENDING_AIRDROP_ID_LIST',
    );
    expect(client.submit(client.sign({ tokenCancelAirdrop: { pending_airdrops: [id, id] } }).bytes)).toBe(
      'PENDING_AIRDROP_ID_REPEATED',
    );
    const twoSenders = {
      tokenAirdrop: {
        token_transfers: [
          {
            token,
            transfers: [
              { accountID: sender.id, amount: '-1' },
              { accountID: associated.id, amount: '-1' },
              { accountID: stranger.id, amount: '2' },
            ],
          },
        ],
      },
    };
    expect(client.submit(client.sign(twoSenders).bytes)).toBe('AIRDROP_CONTAINS_MULTIPLE_SENDERS_FOR_A_TOKEN');
  });
});
