/**
 * Token changes after creation, submitted to a node as signed bytes: TokenUpdate (treasury, keys, properties),
 * TokenFeeScheduleUpdate, TokenUpdateNfts and TokenReject, each checked in its record and in the ledger model.
 */
import { describe, expect, it } from 'vitest';
import { edKey, NodeClient, type TestKey } from '../testing/node-client.ts';

type Pb = Record<string, unknown>;
const key = (k: TestKey) => ({ ed25519: k.publicKey });
const EMPTY_KEY_LIST = { keyList: {} };

async function fungible(
  client: NodeClient,
  treasury: { id: Pb; key: TestKey },
  admin: TestKey | undefined,
  extra: Pb = {},
) {
  const { status, receipt } = await client.run(
    {
      tokenCreation: {
        name: 'Coin',
        symbol: 'C',
        initialSupply: '1000',
        treasury: treasury.id,
        ...(admin ? { adminKey: key(admin) } : {}),
        ...extra,
      },
    },
    [treasury.key.privateKey, ...(admin ? [admin.privateKey] : [])],
  );
  expect(status).toBe('SUCCESS');
  return { tokenNum: (receipt.tokenID as Pb).tokenNum as string };
}

async function collection(client: NodeClient, treasury: { id: Pb; key: TestKey }, admin: TestKey, extra: Pb = {}) {
  const supply = edKey();
  const created = await client.run(
    {
      tokenCreation: {
        name: 'Art',
        symbol: 'A',
        tokenType: 1,
        treasury: treasury.id,
        adminKey: key(admin),
        supplyKey: key(supply),
        ...extra,
      },
    },
    [treasury.key.privateKey, admin.privateKey],
  );
  const token = { tokenNum: (created.receipt.tokenID as Pb).tokenNum as string };
  const minted = await client.run({ tokenMint: { token, metadata: [Buffer.from('one'), Buffer.from('two')] } }, [
    supply.privateKey,
  ]);
  expect(minted.status).toBe('SUCCESS');
  return token;
}

describe('TokenUpdate on a node', () => {
  it("moves a fungible treasury's balance to the new treasury, which signs with the admin key, and records the move", async () => {
    const client = new NodeClient();
    const [old, next] = [await client.account(), await client.account({ max_automatic_token_associations: 1 })];
    const admin = edKey();
    const token = await fungible(client, old, admin);
    const update = { tokenUpdate: { token, treasury: next.id } };

    expect((await client.run(update, [admin.privateKey])).status).toBe('INVALID_SIGNATURE');
    const { status, record } = await client.run(update, [admin.privateKey, next.key.privateKey]);

    expect(status).toBe('SUCCESS');
    const num = BigInt(token.tokenNum);
    expect(client.net.ledger.tokens.get(num)?.treasury).toBe(next.num);
    expect(client.net.ledger.tokenBalance(next.num, num)).toBe(1000n);
    expect(client.net.ledger.tokenBalance(old.num, num)).toBe(0n);
    expect(record.automatic_token_associations).toEqual([{ token_id: token, account_id: next.id }]);
    expect((record.tokenTransferLists as Pb[])[0]?.transfers).toEqual([
      { accountID: old.id, amount: '-1000' },
      { accountID: next.id, amount: '1000' },
    ]);
  });

  it("hands an NFT collection's serials to the new treasury, recorded as the node does with serial -1", async () => {
    const client = new NodeClient();
    const [old, next] = [await client.account(), await client.account({ max_automatic_token_associations: -1 })];
    const admin = edKey();
    const token = await collection(client, old, admin);
    const { status, record } = await client.run({ tokenUpdate: { token, treasury: next.id } }, [
      admin.privateKey,
      next.key.privateKey,
    ]);

    expect(status).toBe('SUCCESS');
    expect((record.tokenTransferLists as Pb[])[0]?.nftTransfers).toEqual([
      { senderAccountID: old.id, receiverAccountID: next.id, serialNumber: '-1' },
    ]);
    expect(client.net.ledger.nft(BigInt(token.tokenNum), 2n)?.owner).toBe(next.num);
    expect(client.net.ledger.tokenBalance(next.num, BigInt(token.tokenNum))).toBe(2n);
  });

  it('changes the name, symbol, memo and metadata under the admin key, and refuses them on an immutable token', async () => {
    const client = new NodeClient();
    const treasury = await client.account();
    const admin = edKey();
    const token = await fungible(client, treasury, admin);
    const changes = {
      name: 'Renamed',
      symbol: 'R',
      memo: { value: 'new memo' },
      metadata: { value: Buffer.from('m') },
    };

    expect((await client.run({ tokenUpdate: { token, ...changes } }, [admin.privateKey])).status).toBe('SUCCESS');
    const model = client.net.ledger.tokens.get(BigInt(token.tokenNum));
    expect([model?.name, model?.symbol, model?.settings?.memo]).toEqual(['Renamed', 'R', 'new memo']);
    expect(Buffer.from(model?.settings?.metadata ?? []).toString()).toBe('m');

    const immutable = await fungible(client, treasury, undefined);
    expect((await client.run({ tokenUpdate: { token: immutable, name: 'x' } })).status).toBe('TOKEN_IS_IMMUTABLE');
  });

  it('refuses an expiry earlier than the current one', async () => {
    const client = new NodeClient();
    const treasury = await client.account();
    const admin = edKey();
    const token = await fungible(client, treasury, admin);
    const { status } = await client.run({ tokenUpdate: { token, expiry: { seconds: '1000' } } }, [admin.privateKey]);
    expect(status).toBe('INVALID_EXPIRATION_TIME');
  });

  it('removes role keys with an empty key list under the admin key, and a role key replaces itself without validation', async () => {
    const client = new NodeClient();
    const treasury = await client.account();
    const [admin, wipe, freeze, newFreeze] = [edKey(), edKey(), edKey(), edKey()];
    const token = await fungible(client, treasury, admin, { wipeKey: key(wipe), freezeKey: key(freeze) });
    const num = BigInt(token.tokenNum);

    const removal = { tokenUpdate: { token, wipeKey: EMPTY_KEY_LIST } };
    expect((await client.run(removal, [wipe.privateKey])).status).toBe('INVALID_SIGNATURE');
    expect((await client.run(removal, [admin.privateKey])).status).toBe('SUCCESS');
    expect(client.net.ledger.tokens.get(num)?.settings?.wipeKey).toBeUndefined();
    expect((await client.run({ tokenUpdate: { token, wipeKey: key(wipe) } }, [admin.privateKey])).status).toBe(
      'TOKEN_HAS_NO_WIPE_KEY',
    );

    const replace = { token, freezeKey: key(newFreeze), key_verification_mode: 1 };
    expect((await client.run({ tokenUpdate: replace }, [freeze.privateKey])).status).toBe('SUCCESS');
    const full = { token, freezeKey: key(freeze) };
    // Full validation: the old and the new key sign, or the admin key does.
    expect((await client.run({ tokenUpdate: full }, [newFreeze.privateKey])).status).toBe('INVALID_SIGNATURE');
    expect((await client.run({ tokenUpdate: full }, [newFreeze.privateKey, freeze.privateKey])).status).toBe('SUCCESS');
  });

  it('answers a structurally invalid key at precheck with that key’s code', () => {
    const client = new NodeClient();
    const invalid = { ECDSA_secp256k1: new Uint8Array(33) };
    const { bytes } = client.sign({ tokenUpdate: { token: { tokenNum: '1001' }, wipeKey: invalid } });
    expect(client.submit(bytes)).toBe('INVALID_WIPE_KEY');
    // A threshold key over an empty key list is no key either, however deep the empty list sits.
    const nested = { thresholdKey: { threshold: 1, keys: { keys: [{ keyList: {} }] } } };
    const create = client.sign({
      tokenCreation: { name: 'N', symbol: 'N', treasury: { accountNum: '2' }, fee_schedule_key: nested },
    });
    expect(client.submit(create.bytes)).toBe('INVALID_CUSTOM_FEE_SCHEDULE_KEY');
  });
});

describe('custom fee schedules, NFT metadata and rejections on a node', () => {
  it('replaces a fee schedule under the fee schedule key, and refuses a token without one', async () => {
    const client = new NodeClient();
    const treasury = await client.account();
    const feeKey = edKey();
    const token = await fungible(client, treasury, edKey(), { fee_schedule_key: key(feeKey) });
    const fee = { fixed_fee: { amount: '5' }, fee_collector_account_id: treasury.id };
    const update = { token_fee_schedule_update: { token_id: token, custom_fees: [fee] } };

    expect((await client.run(update)).status).toBe('INVALID_SIGNATURE');
    expect((await client.run(update, [feeKey.privateKey])).status).toBe('SUCCESS');
    expect(client.net.ledger.tokens.get(BigInt(token.tokenNum))?.settings?.customFees).toEqual([
      { collector: treasury.num, allCollectorsExempt: false, fixed: { amount: 5n } },
    ]);
    const plain = await fungible(client, treasury, edKey());
    const refused = await client.run({ token_fee_schedule_update: { token_id: plain, custom_fees: [fee] } });
    expect(refused.status).toBe('TOKEN_HAS_NO_FEE_SCHEDULE_KEY');
  });

  it('associates the collector of a fractional fee with the token it creates, and checks fractions', async () => {
    const client = new NodeClient();
    const [treasury, collector] = [await client.account(), await client.account()];
    const fractional = (denominator: string) => ({
      fractional_fee: { fractional_amount: { numerator: '1', denominator } },
      fee_collector_account_id: collector.id,
    });
    const create = (fee: Pb) => ({
      tokenCreation: { name: 'F', symbol: 'F', initialSupply: '10', treasury: treasury.id, custom_fees: [fee] },
    });
    expect(
      (await client.run(create(fractional('0')), [treasury.key.privateKey, collector.key.privateKey])).status,
    ).toBe('FRACTION_DIVIDES_BY_ZERO');
    const { status, record, receipt } = await client.run(create(fractional('10')), [
      treasury.key.privateKey,
      collector.key.privateKey,
    ]);
    expect(status).toBe('SUCCESS');
    expect(record.automatic_token_associations).toEqual([
      { token_id: receipt.tokenID, account_id: treasury.id },
      { token_id: receipt.tokenID, account_id: collector.id },
    ]);
  });

  it('changes NFT metadata under the metadata key only', async () => {
    const client = new NodeClient();
    const treasury = await client.account();
    const metadataKey = edKey();
    const token = await collection(client, treasury, edKey(), { metadata_key: key(metadataKey) });
    const update = { token_update_nfts: { token, serial_numbers: ['1'], metadata: { value: Buffer.from('new') } } };

    expect((await client.run(update)).status).toBe('INVALID_SIGNATURE');
    expect((await client.run(update, [metadataKey.privateKey])).status).toBe('SUCCESS');
    const nft = client.net.ledger.nft(BigInt(token.tokenNum), 1n);
    expect(Buffer.from(nft?.metadata ?? []).toString()).toBe('new');
    expect(Buffer.from(client.net.ledger.nft(BigInt(token.tokenNum), 2n)?.metadata ?? []).toString()).toBe('two');
  });

  it("sends a holder's whole balance and named NFTs back to the treasuries, signed by the holder", async () => {
    const client = new NodeClient();
    const [treasury, holder] = [await client.account(), await client.account({ max_automatic_token_associations: -1 })];
    const coin = await fungible(client, treasury, edKey());
    const art = await collection(client, treasury, edKey());
    const give = await client.run(
      {
        cryptoTransfer: {
          tokenTransfers: [
            {
              token: coin,
              transfers: [
                { accountID: treasury.id, amount: '-40' },
                { accountID: holder.id, amount: '40' },
              ],
            },
            {
              token: art,
              nftTransfers: [{ senderAccountID: treasury.id, receiverAccountID: holder.id, serialNumber: '1' }],
            },
          ],
        },
      },
      [treasury.key.privateKey],
    );
    expect(give.status).toBe('SUCCESS');
    const reject = {
      tokenReject: {
        owner: holder.id,
        rejections: [{ fungible_token: coin }, { nft: { token_ID: art, serial_number: '1' } }],
      },
    };

    expect((await client.run(reject)).status).toBe('INVALID_SIGNATURE');
    const stranger = await client.account();
    const notTheirs = {
      tokenReject: { owner: stranger.id, rejections: [{ nft: { token_ID: art, serial_number: '1' } }] },
    };
    expect((await client.run(notTheirs, [stranger.key.privateKey])).status).toBe('INVALID_OWNER_ID');
    const { status, record } = await client.run(reject, [holder.key.privateKey]);
    expect(status).toBe('SUCCESS');
    expect(client.net.ledger.tokenBalance(treasury.num, BigInt(coin.tokenNum))).toBe(1000n);
    expect(client.net.ledger.nft(BigInt(art.tokenNum), 1n)?.owner).toBe(treasury.num);
    expect(record.tokenTransferLists).toHaveLength(2);
    const again = await client.run(reject, [holder.key.privateKey]);
    expect(again.status).toBe('INSUFFICIENT_TOKEN_BALANCE');
    const byTreasury = await client.run(
      { tokenReject: { owner: treasury.id, rejections: [{ fungible_token: coin }] } },
      [treasury.key.privateKey],
    );
    expect(byTreasury.status).toBe('ACCOUNT_IS_TREASURY');
  });
});
