/**
 * CryptoApproveAllowance submitted to a node as signed bytes: who signs (the owner, or a delegating spender for a
 * serial it passes on), contracts as spenders and token holders, and the node's codes for what it refuses.
 */
import { describe, expect, it } from 'vitest';
import { edKey, NodeClient, type TestKey } from '../testing/node-client.ts';

type Pb = Record<string, unknown>;
const key = (k: TestKey) => ({ ed25519: k.publicKey });
/** Runtime code `STOP`, deployed by initcode that returns it. */
const STOP_CONTRACT = Buffer.from('600180600b6000396000f300', 'hex');

/** An NFT collection with two serials, held by 0.0.2 as its treasury. */
async function collection(client: NodeClient) {
  const supply = edKey();
  const created = await client.run({
    tokenCreation: { name: 'Art', symbol: 'A', tokenType: 1, treasury: { accountNum: 2 }, supplyKey: key(supply) },
  });
  const token = { tokenNum: (created.receipt.tokenID as Pb).tokenNum as string };
  const minted = await client.run({ tokenMint: { token, metadata: [Buffer.from('1'), Buffer.from('2')] } }, [
    supply.privateKey,
  ]);
  expect(minted.status).toBe('SUCCESS');
  return token;
}

async function associated(client: NodeClient, token: Pb) {
  const holder = await client.account();
  const associate = await client.run({ tokenAssociate: { account: holder.id, tokens: [token] } }, [
    holder.key.privateKey,
  ]);
  expect(associate.status).toBe('SUCCESS');
  return holder;
}

const nftAllowance = (token: Pb, spender: Pb, fields: Pb) => ({
  cryptoApproveAllowance: { nftAllowances: [{ tokenId: token, owner: { accountNum: 2 }, spender, ...fields }] },
});

describe('CryptoApproveAllowance on a node', () => {
  it('lets a spender approved for the whole collection pass one serial on, signed by it alone, and the new spender move it', async () => {
    const client = new NodeClient();
    const token = await collection(client);
    const [delegating, spender, receiver] = [
      await associated(client, token),
      await client.account(),
      await associated(client, token),
    ];
    const forAll = await client.run(nftAllowance(token, delegating.id, { approved_for_all: { value: true } }));
    expect(forAll.status).toBe('SUCCESS');

    const passOn = nftAllowance(token, spender.id, { serial_numbers: ['1'], delegating_spender: delegating.id });
    const granted = await client.run(passOn, [delegating.key.privateKey], delegating.num);

    expect(granted.status).toBe('SUCCESS');
    expect(client.net.ledger.nft(BigInt(token.tokenNum), 1n)?.spender).toBe(spender.num);
    const move = (serial: string) => ({
      cryptoTransfer: {
        tokenTransfers: [
          {
            token,
            nftTransfers: [
              {
                senderAccountID: { accountNum: 2 },
                receiverAccountID: receiver.id,
                serialNumber: serial,
                is_approval: true,
              },
            ],
          },
        ],
      },
    });
    expect((await client.run(move('1'), [spender.key.privateKey], spender.num)).status).toBe('SUCCESS');
    expect((await client.run(move('2'), [spender.key.privateKey], spender.num)).status).toBe(
      'SPENDER_DOES_NOT_HAVE_ALLOWANCE',
    );
  });

  it('refuses a delegating spender without approval for all, and one granting approval for all', async () => {
    const client = new NodeClient();
    const token = await collection(client);
    const [delegating, spender] = [await associated(client, token), await client.account()];

    const serial = nftAllowance(token, spender.id, { serial_numbers: ['1'], delegating_spender: delegating.id });
    expect((await client.run(serial, [delegating.key.privateKey], delegating.num)).status).toBe(
      'DELEGATING_SPENDER_DOES_NOT_HAVE_APPROVE_FOR_ALL',
    );
    const all = nftAllowance(token, spender.id, {
      approved_for_all: { value: true },
      delegating_spender: delegating.id,
    });
    expect((await client.run(all, [delegating.key.privateKey])).status).toBe(
      'DELEGATING_SPENDER_CANNOT_GRANT_APPROVE_FOR_ALL',
    );
  });

  it("asks for the owner's signature before it looks at the owner's tokens", async () => {
    const client = new NodeClient();
    const [owner, spender] = [await client.account(), await client.account()];
    const token = await collection(client);
    const approval = {
      cryptoApproveAllowance: {
        nftAllowances: [{ tokenId: token, owner: owner.id, spender: spender.id, serial_numbers: ['1'] }],
      },
    };

    expect((await client.run(approval)).status).toBe('INVALID_SIGNATURE');
    expect((await client.run(approval, [owner.key.privateKey])).status).toBe('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  });

  it('refuses an owner as its own hbar or NFT spender but lets it approve itself for fungible units', async () => {
    const client = new NodeClient();
    const token = await collection(client);
    const coin = await client.run({
      tokenCreation: { name: 'Coin', symbol: 'C', initialSupply: '1000', treasury: { accountNum: 2 } },
    });
    const self = { accountNum: 2 };

    const hbar = { cryptoApproveAllowance: { cryptoAllowances: [{ spender: self, amount: '5' }] } };
    expect((await client.run(hbar)).status).toBe('SPENDER_ACCOUNT_SAME_AS_OWNER');
    expect((await client.run(nftAllowance(token, self, { serial_numbers: ['1'] }))).status).toBe(
      'SPENDER_ACCOUNT_SAME_AS_OWNER',
    );
    const units = {
      cryptoApproveAllowance: { tokenAllowances: [{ tokenId: coin.receipt.tokenID, spender: self, amount: '5' }] },
    };
    expect((await client.run(units)).status).toBe('SUCCESS');
  });

  it('takes a contract as a spender, and as an account its admin key associates with a token', async () => {
    const client = new NodeClient();
    const admin = edKey();
    const created = await client.run(
      { contractCreateInstance: { initcode: STOP_CONTRACT, gas: '100000', adminKey: key(admin) } },
      [admin.privateKey],
    );
    expect(created.status).toBe('SUCCESS');
    const contractNum = BigInt(String((created.receipt.contractID as Pb).contractNum));
    const contract = { accountNum: String(contractNum) };
    const coin = await client.run({
      tokenCreation: { name: 'Coin', symbol: 'C', initialSupply: '1000', treasury: { accountNum: 2 } },
    });
    const tokenId = coin.receipt.tokenID as Pb;
    const associate = { tokenAssociate: { account: contract, tokens: [tokenId] } };

    expect((await client.run(associate)).status).toBe('INVALID_SIGNATURE');
    expect((await client.run(associate, [admin.privateKey])).status).toBe('SUCCESS');
    const approval = { cryptoApproveAllowance: { tokenAllowances: [{ tokenId, spender: contract, amount: '100' }] } };
    expect((await client.run(approval)).status).toBe('SUCCESS');

    const tokenNum = BigInt(String(tokenId.tokenNum));
    expect(client.net.ledger.isAssociated(contractNum, tokenNum)).toBe(true);
    expect(client.net.ledger.tokenAllowances.get(`2/${contractNum}/${tokenNum}`)).toBe(100n);
  });

  it('refuses more than twenty allowances in one transaction', async () => {
    const client = new NodeClient();
    const spenders = [];
    for (let i = 0; i < 21; i++) spenders.push(await client.account());
    const approval = {
      cryptoApproveAllowance: { cryptoAllowances: spenders.map((s) => ({ spender: s.id, amount: '1' })) },
    };

    expect((await client.run(approval)).status).toBe('MAX_ALLOWANCES_EXCEEDED');
  });
});
