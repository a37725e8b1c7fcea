/**
 * The official Hiero SDK against the local network for the token families beyond creation and transfer: token updates
 * (a new treasury taking the balance and the NFTs), fee schedule updates and custom fees charged on transfers, NFT
 * metadata updates, rejections, airdrops (immediate, pending, claimed, cancelled), HIP-991 topic fees, and a transfer
 * to an EVM address that creates a hollow account, completed when it pays. Each receipt is the node's, and the mirror shows what it did.
 */
import {
  AccountId,
  CustomFixedFee,
  CustomFractionalFee,
  Hbar,
  NftId,
  PrivateKey,
  TokenAirdropTransaction,
  TokenAssociateTransaction,
  TokenCancelAirdropTransaction,
  TokenClaimAirdropTransaction,
  TokenCreateTransaction,
  TokenFeeScheduleUpdateTransaction,
  TokenMintTransaction,
  TokenRejectTransaction,
  TokenType,
  TokenUpdateNftsTransaction,
  TokenUpdateTransaction,
  TopicCreateTransaction,
  TopicMessageSubmitTransaction,
  TransactionId,
  type TransactionResponse,
  TransferTransaction,
} from '@hiero-ledger/sdk';
import Long from 'long';
import { describe, expect, it } from 'vitest';
import {
  eventually as eventuallyOn,
  fundedAccount,
  restTransactionId,
  succeeds as succeedsOn,
  useLocalNetwork,
} from '../../test/harness/local-network.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';

const { db, worker } = registerWorkerSuite();

const local = useLocalNetwork(() => db.url);

const eventually = <T = Record<string, unknown>>(path: string, ready: (body: T) => boolean) =>
  eventuallyOn<T>(worker, path, ready);

const succeeds = (response: TransactionResponse) => succeedsOn(local.client, response);

const account = (key: PrivateKey, maxAutomaticTokenAssociations = 0) =>
  fundedAccount(local.client, key, { hbar: 50, maxAutomaticTokenAssociations });

describe('token families through the official SDK', () => {
  it('updates a token and its NFTs, charges its custom fees, and the mirror follows', async () => {
    const [aliceKey, bobKey, adminKey] = [
      PrivateKey.generateED25519(),
      PrivateKey.generateED25519(),
      PrivateKey.generateED25519(),
    ];
    const [alice, bob] = [await account(aliceKey, -1), await account(bobKey, -1)];
    const coinCreate = await new TokenCreateTransaction()
      .setTokenName('Fee Coin')
      .setTokenSymbol('FEE')
      .setInitialSupply(10_000)
      .setTreasuryAccountId(alice)
      .setAdminKey(adminKey.publicKey)
      .setFeeScheduleKey(adminKey.publicKey)
      .freezeWith(local.client)
      .sign(aliceKey);
    const coin = (await succeeds(await (await coinCreate.sign(adminKey)).execute(local.client))).tokenId;
    const artCreate = await new TokenCreateTransaction()
      .setTokenName('Art')
      .setTokenSymbol('ART')
      .setTokenType(TokenType.NonFungibleUnique)
      .setTreasuryAccountId(alice)
      .setAdminKey(adminKey.publicKey)
      .setSupplyKey(adminKey.publicKey)
      .setMetadataKey(adminKey.publicKey)
      .freezeWith(local.client)
      .sign(aliceKey);
    const art = (await succeeds(await (await artCreate.sign(adminKey)).execute(local.client))).tokenId;
    if (!coin || !art) throw new Error('no token ids');
    const mint = await new TokenMintTransaction()
      .setTokenId(art)
      .setMetadata([Buffer.from('one'), Buffer.from('two')])
      .freezeWith(local.client)
      .sign(adminKey);
    await succeeds(await mint.execute(local.client));

    // A fractional fee of a tenth, collected by the operator, charged on a transfer from Alice to Bob.
    const fees = await new TokenFeeScheduleUpdateTransaction()
      .setTokenId(coin)
      .setCustomFees([
        new CustomFractionalFee().setNumerator(1).setDenominator(10).setFeeCollectorAccountId(alice),
        new CustomFixedFee().setHbarAmount(Hbar.fromTinybars(1_000)).setFeeCollectorAccountId('0.0.2'),
      ])
      .freezeWith(local.client)
      .sign(adminKey);
    await succeeds(await fees.execute(local.client));
    const charged = await (
      await new TransferTransaction()
        .addTokenTransfer(coin, alice, -1_000)
        .addTokenTransfer(coin, bob, 1_000)
        .freezeWith(local.client)
        .sign(aliceKey)
    ).execute(local.client);
    await succeeds(charged);
    await succeeds(
      await new TokenAssociateTransaction().setAccountId('0.0.2').setTokenIds([coin]).execute(local.client),
    );
    // Bob pays the fixed hbar fee; the operator, receiving, gives up a tenth of what it gets to the collector.
    const bobPays = await (
      await new TransferTransaction()
        .addTokenTransfer(coin, bob, -500)
        .addTokenTransfer(coin, '0.0.2', 500)
        .freezeWith(local.client)
        .sign(bobKey)
    ).execute(local.client);
    await succeeds(bobPays);
    const record = await bobPays.getRecord(local.client);
    expect(record.assessedCustomFees.map((fee) => [fee.feeCollectorAccountId?.toString(), String(fee.amount)])).toEqual(
      [
        ['0.0.2', '1000'],
        [alice.toString(), '50'],
      ],
    );
    const assessed = await eventually<{ transactions: { assessed_custom_fees: unknown[] }[] }>(
      `/api/v1/transactions/${restTransactionId(bobPays)}`,
      () => true,
    );
    expect(assessed.transactions[0]?.assessed_custom_fees).toHaveLength(2);

    const update = await new TokenUpdateTransaction()
      .setTokenId(art)
      .setTreasuryAccountId(bob)
      .setTokenMemo('moved')
      .freezeWith(local.client)
      .sign(adminKey);
    await succeeds(await (await update.sign(bobKey)).execute(local.client));
    const metadata = await new TokenUpdateNftsTransaction()
      .setTokenId(art)
      .setSerialNumbers([Long.fromNumber(1)])
      .setMetadata(Buffer.from('renewed'))
      .freezeWith(local.client)
      .sign(adminKey);
    await succeeds(await metadata.execute(local.client));
    await eventually<{ treasury_account_id: string; memo: string }>(
      `/api/v1/tokens/${art.toString()}`,
      (body) => body.treasury_account_id === bob.toString() && body.memo === 'moved',
    );
    const nft = await eventually<{ account_id: string; metadata: string }>(
      `/api/v1/tokens/${art.toString()}/nfts/1`,
      (body) => body.metadata === Buffer.from('renewed').toString('base64'),
    );
    expect(nft.account_id).toBe(bob.toString());

    // Alice sends an NFT back to the treasury by rejecting it.
    const give = await (
      await new TransferTransaction().addNftTransfer(art, 2, bob, alice).freezeWith(local.client).sign(bobKey)
    ).execute(local.client);
    await succeeds(give);
    const reject = await new TokenRejectTransaction()
      .setOwnerId(alice)
      .addNftId(new NftId(art, 2))
      .freezeWith(local.client)
      .sign(aliceKey);
    await succeeds(await reject.execute(local.client));
    await eventually<{ account_id: string }>(
      `/api/v1/tokens/${art.toString()}/nfts/2`,
      (body) => body.account_id === bob.toString(),
    );
  }, 240_000);

  it('airdrops at once, pending, claimed and cancelled, as the mirror lists them', async () => {
    const [senderKey, carolKey, daveKey] = [
      PrivateKey.generateED25519(),
      PrivateKey.generateED25519(),
      PrivateKey.generateED25519(),
    ];
    const [sender, carol, dave] = [await account(senderKey), await account(carolKey), await account(daveKey)];
    const create = await new TokenCreateTransaction()
      .setTokenName('Drop')
      .setTokenSymbol('DROP')
      .setInitialSupply(1_000)
      .setTreasuryAccountId(sender)
      .freezeWith(local.client)
      .sign(senderKey);
    const token = (await succeeds(await create.execute(local.client))).tokenId;
    if (!token) throw new Error('no token id');

    const airdrop = await (
      await new TokenAirdropTransaction()
        .addTokenTransfer(token, sender, -300)
        .addTokenTransfer(token, carol, 100)
        .addTokenTransfer(token, dave, 200)
        .freezeWith(local.client)
        .sign(senderKey)
    ).execute(local.client);
    await succeeds(airdrop);
    const { newPendingAirdrops } = await airdrop.getRecord(local.client);
    expect(newPendingAirdrops.map((p) => p.airdropId.receiverId?.toString()).sort()).toEqual(
      [carol.toString(), dave.toString()].sort(),
    );
    await eventually<{ airdrops: { amount: number }[] }>(
      `/api/v1/accounts/${carol.toString()}/airdrops/pending`,
      (body) => body.airdrops.length === 1 && body.airdrops[0]?.amount === 100,
    );

    const claimFor = newPendingAirdrops.find((p) => p.airdropId.receiverId?.toString() === carol.toString());
    const cancelFor = newPendingAirdrops.find((p) => p.airdropId.receiverId?.toString() === dave.toString());
    if (!claimFor || !cancelFor) throw new Error('pending airdrops missing');
    const claim = await new TokenClaimAirdropTransaction()
      .addPendingAirdropId(claimFor.airdropId)
      .freezeWith(local.client)
      .sign(carolKey);
    await succeeds(await claim.execute(local.client));
    const cancel = await new TokenCancelAirdropTransaction()
      .addPendingAirdropId(cancelFor.airdropId)
      .freezeWith(local.client)
      .sign(senderKey);
    await succeeds(await cancel.execute(local.client));
    await eventually<{ balances: { account: string; balance: number }[] }>(
      `/api/v1/tokens/${token.toString()}/balances?account.id=${carol.toString()}`,
      (body) => body.balances[0]?.balance === 100,
    );
    await eventually<{ airdrops: unknown[] }>(
      `/api/v1/accounts/${sender.toString()}/airdrops/outstanding`,
      (body) => body.airdrops.length === 0,
    );
  }, 120_000);

  it('charges a HIP-991 topic fee to a submitter, not to a fee-exempt one', async () => {
    const [payerKey, exemptKey] = [PrivateKey.generateED25519(), PrivateKey.generateED25519()];
    const [payer, exempt] = [await account(payerKey), await account(exemptKey)];
    const topicCreate = await new TopicCreateTransaction()
      .setFeeScheduleKey(PrivateKey.generateED25519().publicKey)
      .setFeeExemptKeys([exemptKey.publicKey])
      .addCustomFee(new CustomFixedFee().setHbarAmount(new Hbar(1)).setFeeCollectorAccountId('0.0.2'))
      .execute(local.client);
    const topic = (await succeeds(topicCreate)).topicId;
    if (!topic) throw new Error('no topic id');
    const submitAs = async (id: AccountId, key: PrivateKey) => {
      const submit = await new TopicMessageSubmitTransaction()
        .setTopicId(topic)
        .setMessage('paid')
        .setTransactionId(TransactionId.generate(id))
        .freezeWith(local.client)
        .sign(key);
      const response = await submit.execute(local.client);
      await succeeds(response);
      return response.getRecord(local.client);
    };
    const paid = await submitAs(payer, payerKey);
    expect(paid.assessedCustomFees.map((fee) => String(fee.amount))).toEqual(['100000000']);
    const free = await submitAs(exempt, exemptKey);
    expect(free.assessedCustomFees).toEqual([]);
    await eventually<{ custom_fees: { fixed_fees: unknown[] } }>(
      `/api/v1/topics/${topic.toString()}`,
      (body) => body.custom_fees.fixed_fees.length === 1,
    );
  }, 120_000);

  it('creates a hollow account for a transfer to an unknown EVM address, which its ECDSA key completes by paying', async () => {
    const key = PrivateKey.generateECDSA();
    const evm = key.publicKey.toEvmAddress();
    const transfer = await new TransferTransaction()
      .addHbarTransfer('0.0.2', new Hbar(-3))
      .addHbarTransfer(AccountId.fromEvmAddress(0, 0, evm), new Hbar(3))
      .execute(local.client);
    await succeeds(transfer);
    const receipt = await transfer.getReceiptQuery().setIncludeChildren(true).execute(local.client);
    const created = receipt.children[0]?.accountId;
    if (!created) throw new Error('no child receipt with the new account');
    const hollow = await eventually<{ account: string; evm_address: string; balance: { balance: number } }>(
      `/api/v1/accounts/0x${evm}`,
      () => true,
    );
    expect([hollow.account, hollow.evm_address]).toEqual([created.toString(), `0x${evm}`]);
    expect(hollow.balance.balance).toBe(300_000_000);

    const pays = await (
      await new TransferTransaction()
        .addHbarTransfer(created, new Hbar(-1))
        .addHbarTransfer('0.0.2', new Hbar(1))
        .setTransactionId(TransactionId.generate(created))
        .freezeWith(local.client)
        .sign(key)
    ).execute(local.client);
    await succeeds(pays);
    await eventually<{ key: { _type: string; key: string } | null }>(
      `/api/v1/accounts/${created.toString()}`,
      (body) => body.key?._type === 'ECDSA_SECP256K1' && body.key.key === key.publicKey.toStringRaw(),
    );
  }, 120_000);
});
