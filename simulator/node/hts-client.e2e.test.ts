/**
 * A client's own contract calling the Hedera Token Service system contract (0x167) on the local network, deployed and
 * called through the official SDK as operator 0.0.2 (test/contracts/HtsClient.sol, compiled by solc-js): it associates
 * itself with a token whose supply key is its contract id, mints it, and sends units on; it creates a token of its
 * own and mints and sends it in one transaction. Each dispatch is a child record of the contract call with the node's
 * status, and the mirror shows the parent, its children, the system call among the actions, and the balances.
 */
import {
  AccountCreateTransaction,
  type AccountId,
  ContractCallQuery,
  ContractCreateTransaction,
  ContractExecuteTransaction,
  ContractFunctionParameters,
  type ContractId,
  Hbar,
  KeyList,
  PrivateKey,
  Status,
  TokenAssociateTransaction,
  TokenCreateTransaction,
  TokenId,
  TokenInfoQuery,
  TransactionReceiptQuery,
  TransactionRecordQuery,
  type TransactionResponse,
} from '@hiero-ledger/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually as eventuallyOn, restTransactionId, useLocalNetwork } from '../../test/harness/local-network.ts';
import { compileContracts } from '../../test/harness/solidity.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';

const { db, worker } = registerWorkerSuite();

const local = useLocalNetwork(() => db.url);

const SUCCESS = 22;
const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
const GAS = 1_000_000;

const eventually = <T = Record<string, unknown>>(path: string, ready: (body: T) => boolean) =>
  eventuallyOn<T>(worker, path, ready);

interface RestTransaction {
  name: string;
  nonce: number;
  result: string;
  parent_consensus_timestamp: string | null;
  token_transfers: { token_id: string; account: string; amount: number }[];
}

/** The transaction and its children on the REST API once all `count` are there, in nonce order. */
async function restFamily(response: TransactionResponse, count: number): Promise<RestTransaction[]> {
  const body = await eventually<{ transactions: RestTransaction[] }>(
    `/api/v1/transactions/${restTransactionId(response)}`,
    (b) => b.transactions.length === count,
  );
  return [...body.transactions].sort((a, b) => a.nonce - b.nonce);
}

/** The record whatever its status (the SDK's getRecord throws for a failed transaction). */
const recordOf = (response: TransactionResponse) =>
  new TransactionRecordQuery()
    .setTransactionId(response.transactionId)
    .setValidateReceiptStatus(false)
    .execute(local.client);

const statusOf = async (response: TransactionResponse) =>
  (
    await new TransactionReceiptQuery()
      .setTransactionId(response.transactionId)
      .setValidateStatus(false)
      .execute(local.client)
  ).status;

const address = (id: AccountId | ContractId | TokenId) => `0x${id.toEvmAddress().replace(/^0x/, '')}`;

describe('a client contract calling the HTS system contract on the local network', () => {
  const contract = compileContracts('HtsClient.sol').HtsClient;
  let client: ContractId;
  let token: TokenId;
  let holder: AccountId;
  let holderKey: PrivateKey;
  /** The token's treasury, whose key is one of its own key and the contract's id: the contract acts for it. */
  let treasury: AccountId;

  const execute = (fn: string, params: ContractFunctionParameters, payable?: Hbar) => {
    const tx = new ContractExecuteTransaction().setContractId(client).setGas(GAS).setFunction(fn, params);
    if (payable) tx.setPayableAmount(payable);
    return tx.execute(local.client);
  };

  beforeAll(async () => {
    if (!contract) throw new Error('HtsClient did not compile');
    const deploy = await new ContractCreateTransaction()
      .setBytecode(contract.initcode)
      .setConstructorParameters(new ContractFunctionParameters().addAddress(`0x${'00'.repeat(20)}`))
      .setGas(GAS)
      .execute(local.client);
    const deployed = (await deploy.getReceipt(local.client)).contractId;
    if (!deployed) throw new Error('no contract id');
    client = deployed;
    const treasuryKey = PrivateKey.generateED25519();
    const treasuryCreate = await new AccountCreateTransaction()
      .setKeyWithoutAlias(new KeyList([treasuryKey.publicKey, client], 1))
      .setInitialBalance(new Hbar(20))
      .execute(local.client);
    const treasuryId = (await treasuryCreate.getReceipt(local.client)).accountId;
    if (!treasuryId) throw new Error('no treasury id');
    treasury = treasuryId;
    const create = await (
      await new TokenCreateTransaction()
        .setTokenName('Client Managed')
        .setTokenSymbol('CMT')
        .setDecimals(0)
        .setInitialSupply(0)
        .setTreasuryAccountId(treasury)
        // The contract's id as the supply key: only the contract's own calls to 0x167 mint it.
        .setSupplyKey(client)
        .freezeWith(local.client)
        .sign(treasuryKey)
    ).execute(local.client);
    const created = (await create.getReceipt(local.client)).tokenId;
    if (!created) throw new Error('no token id');
    token = created;
    holderKey = PrivateKey.generateED25519();
    const account = await new AccountCreateTransaction()
      .setKeyWithoutAlias(holderKey.publicKey)
      .setInitialBalance(new Hbar(20))
      .execute(local.client);
    const accountId = (await account.getReceipt(local.client)).accountId;
    if (!accountId) throw new Error('no account id');
    holder = accountId;
    const associate = await new TokenAssociateTransaction()
      .setAccountId(holder)
      .setTokenIds([token])
      .freezeWith(local.client)
      .sign(holderKey);
    expect((await (await associate.execute(local.client)).getReceipt(local.client)).status).toBe(Status.Success);
  });

  it('associates itself, mints under its contract-id supply key and sends units on, each dispatch a child record', async () => {
    const associated = await execute('associate', new ContractFunctionParameters().addAddress(address(token)));
    const associateRecord = await associated.getRecord(local.client);
    expect(associateRecord.receipt.status).toBe(Status.Success);
    expect(associateRecord.contractFunctionResult?.getInt64(0).toNumber()).toBe(SUCCESS);

    const minted = await execute('mint', new ContractFunctionParameters().addAddress(address(token)).addInt64(1_000));
    const mintRecord = await minted.getRecord(local.client);
    expect(mintRecord.receipt.status).toBe(Status.Success);
    expect(mintRecord.contractFunctionResult?.getInt64(0).toNumber()).toBe(SUCCESS);
    expect(mintRecord.contractFunctionResult?.getInt64(1).toNumber()).toBe(1_000);
    const info = await new TokenInfoQuery().setTokenId(token).execute(local.client);
    expect(info.totalSupply.toNumber()).toBe(1_000);
    const known = await new ContractCallQuery()
      .setContractId(client)
      .setGas(100_000)
      .setFunction('isToken', new ContractFunctionParameters().addAddress(address(token)))
      .execute(local.client);
    expect([known.getInt64(0).toNumber(), known.getBool(1)]).toEqual([SUCCESS, true]);

    // The contract sends the treasury's units: the treasury's key names the contract.
    const sent = await execute(
      'send',
      new ContractFunctionParameters()
        .addAddress(address(token))
        .addAddress(address(treasury))
        .addAddress(address(holder))
        .addInt64(250),
    );
    const sendRecord = await sent.getRecord(local.client);
    expect(sendRecord.receipt.status).toBe(Status.Success);
    expect(sendRecord.contractFunctionResult?.getInt64(0).toNumber()).toBe(SUCCESS);

    const [associateParent, associateChild] = await restFamily(associated, 2);
    expect(associateParent).toMatchObject({ name: 'CONTRACTCALL', nonce: 0, result: 'SUCCESS' });
    expect(associateChild).toMatchObject({ name: 'TOKENASSOCIATE', nonce: 1, result: 'SUCCESS' });
    const [, mintChild] = await restFamily(minted, 2);
    expect(mintChild).toMatchObject({ name: 'TOKENMINT', nonce: 1, result: 'SUCCESS' });
    expect(mintChild?.token_transfers.map((t) => `${t.token_id}:${t.account}:${t.amount}`)).toEqual([
      `${token.toString()}:${treasury.toString()}:1000`,
    ]);
    const [sendParent, sendChild] = await restFamily(sent, 2);
    expect(sendChild).toMatchObject({ name: 'CRYPTOTRANSFER', nonce: 1, result: 'SUCCESS' });
    expect(sendChild?.parent_consensus_timestamp).toBeTruthy();
    expect(sendParent?.token_transfers).toEqual([]);
    expect((sendChild?.token_transfers ?? []).map((t) => `${t.account}:${t.amount}`).sort()).toEqual(
      [`${treasury.toString()}:-250`, `${holder.toString()}:250`].sort(),
    );

    // A HAPI transaction's 32-byte form of its hash: the first 32 bytes of its SHA-384 hash, as relays use it.
    const hash = Buffer.from(sendRecord.transactionHash.subarray(0, 32)).toString('hex');
    const result = await eventually<Record<string, unknown>>(`/api/v1/contracts/results/0x${hash}`, () => true);
    expect(result).toMatchObject({ result: 'SUCCESS', contract_id: client.toString() });
    expect(String(result.call_result)).toBe(`0x${SUCCESS.toString(16).padStart(64, '0')}`);
    const actions = await eventually<{ actions: Record<string, unknown>[] }>(
      `/api/v1/contracts/results/0x${hash}/actions`,
      (b) => b.actions.length === 2,
    );
    expect(actions.actions[1]).toMatchObject({
      call_type: 'SYSTEM',
      call_depth: 1,
      caller: client.toString(),
      recipient: '0.0.359',
      result_data: `0x${SUCCESS.toString(16).padStart(64, '0')}`,
    });
    const holderTokens = await eventually<{ tokens: { token_id: string; balance: number }[] }>(
      `/api/v1/accounts/${holder.toString()}/tokens?token.id=${token.toString()}`,
      (b) => b.tokens[0]?.balance === 250,
    );
    expect(holderTokens.tokens[0]?.balance).toBe(250);
    const treasuryTokens = await eventually<{ tokens: { balance: number }[] }>(
      `/api/v1/accounts/${treasury.toString()}/tokens?token.id=${token.toString()}`,
      (b) => b.tokens[0]?.balance === 750,
    );
    expect(treasuryTokens.tokens[0]?.balance).toBe(750);
    const contractTokens = await eventually<{ tokens: { balance: number }[] }>(
      `/api/v1/accounts/${client.toString()}/tokens?token.id=${token.toString()}`,
      (b) => b.tokens.length === 1,
    );
    expect(contractTokens.tokens[0]?.balance).toBe(0);
  });

  it('runs a constructor that associates the contract being created with a token', async () => {
    const deploy = await new ContractCreateTransaction()
      .setBytecode(contract?.initcode ?? new Uint8Array())
      .setConstructorParameters(new ContractFunctionParameters().addAddress(address(token)))
      // The deployment's code deposit and the association's price (about 700,000 gas) together.
      .setGas(3 * GAS)
      .execute(local.client);
    const receipt = await deploy.getReceipt(local.client);
    expect(receipt.status).toBe(Status.Success);
    const [parent, child] = await restFamily(deploy, 2);
    expect(parent).toMatchObject({ name: 'CONTRACTCREATEINSTANCE', result: 'SUCCESS' });
    expect(child).toMatchObject({ name: 'TOKENASSOCIATE', nonce: 1, result: 'SUCCESS' });
    await eventually<{ tokens: { balance: number }[] }>(
      `/api/v1/accounts/${receipt.contractId?.toString()}/tokens?token.id=${token.toString()}`,
      (b) => b.tokens.length === 1,
    );
  });

  it("answers a transfer to an account without the association with the node's code, and a revert on it fails the call", async () => {
    const stranger = await new AccountCreateTransaction()
      .setKeyWithoutAlias(PrivateKey.generateED25519().publicKey)
      .execute(local.client);
    const strangerId = (await stranger.getReceipt(local.client)).accountId;
    if (!strangerId) throw new Error('no account id');
    const params = () =>
      new ContractFunctionParameters().addAddress(address(token)).addAddress(address(strangerId)).addInt64(1);

    const answered = await execute('transfer', params());
    const record = await answered.getRecord(local.client);
    expect(record.receipt.status).toBe(Status.Success);
    expect(record.contractFunctionResult?.getInt64(0).toNumber()).toBe(TOKEN_NOT_ASSOCIATED_TO_ACCOUNT);
    const [, child] = await restFamily(answered, 2);
    expect(child).toMatchObject({ name: 'CRYPTOTRANSFER', nonce: 1, result: 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT' });
    expect(child?.token_transfers).toEqual([]);

    const reverted = await execute('transferOrRevert', params());
    const revertedRecord = await recordOf(reverted);
    expect(revertedRecord.receipt.status).toBe(Status.ContractRevertExecuted);
    // Failed(int64) with the node's code: the contract's revert data.
    expect(revertedRecord.contractFunctionResult?.errorMessage).toContain(
      TOKEN_NOT_ASSOCIATED_TO_ACCOUNT.toString(16).padStart(64, '0'),
    );
    const [parent, revertedChild] = await restFamily(reverted, 2);
    expect(parent).toMatchObject({ result: 'CONTRACT_REVERT_EXECUTED' });
    expect(revertedChild).toMatchObject({ nonce: 1, result: 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT' });
  });

  it('creates a token of its own, then mints and sends it in one transaction; a reverted mint and a local call change nothing; its address answers ERC-20', async () => {
    const created = await execute(
      'createToken',
      new ContractFunctionParameters().addString('Client Own').addString('OWN'),
      new Hbar(40),
    );
    const createRecord = await created.getRecord(local.client);
    expect(createRecord.receipt.status).toBe(Status.Success);
    expect(createRecord.contractFunctionResult?.getInt64(0).toNumber()).toBe(SUCCESS);
    const own = TokenId.fromEvmAddress(0, 0, createRecord.contractFunctionResult?.getAddress(1) ?? '');
    const [, createChild] = await restFamily(created, 2);
    expect(createChild).toMatchObject({ name: 'TOKENCREATION', nonce: 1, result: 'SUCCESS' });
    const ownInfo = await new TokenInfoQuery().setTokenId(own).execute(local.client);
    expect(ownInfo.treasuryAccountId?.toString()).toBe(client.toString());

    await (
      await new TokenAssociateTransaction()
        .setAccountId(holder)
        .setTokenIds([own])
        .freezeWith(local.client)
        .sign(holderKey)
    ).execute(local.client);
    // The transfer sees the mint made before it in the same transaction.
    const both = await execute(
      'mintAndTransfer',
      new ContractFunctionParameters().addAddress(address(own)).addAddress(address(holder)).addInt64(75),
    );
    const bothRecord = await both.getRecord(local.client);
    expect(bothRecord.receipt.status).toBe(Status.Success);
    const [, mintChild, sendChild] = await restFamily(both, 3);
    expect(mintChild).toMatchObject({ name: 'TOKENMINT', nonce: 1, result: 'SUCCESS' });
    expect(sendChild).toMatchObject({ name: 'CRYPTOTRANSFER', nonce: 2, result: 'SUCCESS' });
    await eventually<{ tokens: { balance: number }[] }>(
      `/api/v1/accounts/${holder.toString()}/tokens?token.id=${own.toString()}`,
      (b) => b.tokens[0]?.balance === 75,
    );

    const undone = await execute(
      'mintThenRevert',
      new ContractFunctionParameters().addAddress(address(own)).addInt64(5),
    );
    expect(await statusOf(undone)).toBe(Status.ContractRevertExecuted);
    const [, undoneChild] = await restFamily(undone, 2);
    expect(undoneChild).toMatchObject({ name: 'TOKENMINT', nonce: 1, result: 'REVERTED_SUCCESS', token_transfers: [] });

    const local_ = await new ContractCallQuery()
      .setContractId(client)
      .setGas(GAS)
      .setFunction('mint', new ContractFunctionParameters().addAddress(address(own)).addInt64(9))
      .execute(local.client);
    expect(local_.getInt64(0).toNumber()).toBe(SUCCESS);
    expect(local_.getInt64(1).toNumber()).toBe(84);
    const after = await new TokenInfoQuery().setTokenId(own).execute(local.client);
    expect(after.totalSupply.toNumber()).toBe(75);

    // The token's own address answers ERC-20: a transfer of the contract's units, with its Transfer event.
    await (await execute('mint', new ContractFunctionParameters().addAddress(address(own)).addInt64(20))).getReceipt(
      local.client,
    );
    const erc = await execute(
      'ercTransfer',
      new ContractFunctionParameters().addAddress(address(own)).addAddress(address(holder)).addUint256(20),
    );
    const ercRecord = await erc.getRecord(local.client);
    expect(ercRecord.contractFunctionResult?.getBool(0)).toBe(true);
    const [transferLog] = ercRecord.contractFunctionResult?.logs ?? [];
    expect(transferLog?.contractId?.toString()).toBe(own.toString());
    expect(Buffer.from(transferLog?.data ?? new Uint8Array()).toString('hex')).toBe(
      (20).toString(16).padStart(64, '0'),
    );
    const [, ercChild] = await restFamily(erc, 2);
    expect(ercChild).toMatchObject({ name: 'CRYPTOTRANSFER', nonce: 1, result: 'SUCCESS' });
    const balance = await new ContractCallQuery()
      .setContractId(client)
      .setGas(100_000)
      .setFunction('ercBalance', new ContractFunctionParameters().addAddress(address(own)).addAddress(address(holder)))
      .execute(local.client);
    expect(balance.getUint256(0).toNumber()).toBe(95);
  });
});
