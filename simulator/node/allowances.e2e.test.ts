/**
 * Allowances through the official SDK against the local network: a spender approved for a whole collection passes one
 * serial on to another spender (the delegating spender signs), and a contract is a fungible token allowance's spender.
 * The mirror shows the allowances and each serial's spender and delegating spender as the reference importer writes them.
 */
import {
  AccountAllowanceApproveTransaction,
  ContractCreateTransaction,
  NftId,
  PrivateKey,
  Status,
  TokenAssociateTransaction,
  TokenCreateTransaction,
  TokenMintTransaction,
  TokenType,
  type TransactionResponse,
} from '@hiero-ledger/sdk';
import { describe, expect, it } from 'vitest';
import {
  eventually as eventuallyOn,
  fundedAccount,
  succeeds as succeedsOn,
  useLocalNetwork,
} from '../../test/harness/local-network.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';

const { db, worker } = registerWorkerSuite();

const local = useLocalNetwork(() => db.url);

/** Initcode returning the one-byte runtime `STOP`. */
const STOP_CONTRACT = '600180600b6000396000f300';

const eventually = <T = Record<string, unknown>>(path: string, ready: (body: T) => boolean) =>
  eventuallyOn<T>(worker, path, ready);

const succeeds = (response: TransactionResponse) => succeedsOn(local.client, response);

const account = (key: PrivateKey) => fundedAccount(local.client, key, { hbar: 20, maxAutomaticTokenAssociations: -1 });

describe('allowances through the official SDK', () => {
  it('lets an approved-for-all spender pass a serial on, and the mirror shows its spender and delegating spender', async () => {
    const [delegatingKey, spenderKey, supplyKey] = [
      PrivateKey.generateED25519(),
      PrivateKey.generateED25519(),
      PrivateKey.generateED25519(),
    ];
    const [delegating, spender] = [await account(delegatingKey), await account(spenderKey)];
    const create = await new TokenCreateTransaction()
      .setTokenName('Art')
      .setTokenSymbol('ART')
      .setTokenType(TokenType.NonFungibleUnique)
      .setTreasuryAccountId('0.0.2')
      .setSupplyKey(supplyKey.publicKey)
      .execute(local.client);
    const art = (await succeeds(create)).tokenId;
    if (!art) throw new Error('no token id');
    const mint = await new TokenMintTransaction()
      .setTokenId(art)
      .setMetadata([Buffer.from('one'), Buffer.from('two')])
      .freezeWith(local.client)
      .sign(supplyKey);
    await succeeds(await mint.execute(local.client));
    await succeeds(
      await new AccountAllowanceApproveTransaction()
        .approveTokenNftAllowanceAllSerials(art, '0.0.2', delegating)
        .execute(local.client),
    );

    // The delegating spender pays and signs: the owner's signature is not needed for a serial it passes on.
    const asDelegating = local.network.client().setOperator(delegating, delegatingKey);
    const passOn = await new AccountAllowanceApproveTransaction()
      .approveTokenNftAllowanceWithDelegatingSpender(new NftId(art, 1), '0.0.2', spender, delegating)
      .execute(asDelegating);
    expect((await passOn.getReceipt(asDelegating)).status).toBe(Status.Success);

    const nft = await eventually<{ spender: string | null; delegating_spender: string | null }>(
      `/api/v1/tokens/${art}/nfts/1`,
      (body) => body.spender === spender.toString(),
    );
    expect(nft.delegating_spender).toBe(delegating.toString());
    const allowances = await eventually<{ allowances: Record<string, unknown>[] }>(
      '/api/v1/accounts/0.0.2/allowances/nfts',
      (body) => body.allowances.length > 0,
    );
    expect(allowances.allowances).toEqual([
      expect.objectContaining({
        approved_for_all: true,
        owner: '0.0.2',
        spender: delegating.toString(),
        token_id: art.toString(),
      }),
    ]);
  });

  it("makes a contract a token allowance's spender, and the mirror shows the allowance", async () => {
    const adminKey = PrivateKey.generateED25519();
    const deploy = await new ContractCreateTransaction()
      .setBytecode(Buffer.from(STOP_CONTRACT, 'hex'))
      .setGas(100_000)
      .setAdminKey(adminKey.publicKey)
      .freezeWith(local.client)
      .sign(adminKey);
    const contract = (await succeeds(await deploy.execute(local.client))).contractId;
    const coin = (
      await succeeds(
        await new TokenCreateTransaction()
          .setTokenName('Coin')
          .setTokenSymbol('C')
          .setInitialSupply(1_000)
          .setTreasuryAccountId('0.0.2')
          .execute(local.client),
      )
    ).tokenId;
    if (!contract || !coin) throw new Error('no ids');
    const associate = await new TokenAssociateTransaction()
      .setAccountId(contract.toString())
      .setTokenIds([coin])
      .freezeWith(local.client)
      .sign(adminKey);
    await succeeds(await associate.execute(local.client));
    await succeeds(
      await new AccountAllowanceApproveTransaction()
        .approveTokenAllowance(coin, '0.0.2', contract.toString(), 100)
        .execute(local.client),
    );

    const allowances = await eventually<{ allowances: Record<string, unknown>[] }>(
      `/api/v1/accounts/0.0.2/allowances/tokens?spender.id=${contract}`,
      (body) => body.allowances.length > 0,
    );
    expect(allowances.allowances).toEqual([
      expect.objectContaining({ amount: 100, owner: '0.0.2', spender: contract.toString(), token_id: coin.toString() }),
    ]);
  });
});
