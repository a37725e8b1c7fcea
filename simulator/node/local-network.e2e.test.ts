/**
 * The official Hiero SDK against the local network as `npm start` runs it (Client.forLocalNode()'s settings with the
 * ports moved, operator 0.0.2 with the genesis key): accounts, hbar, tokens, NFTs, topics, files, contracts, an
 * Ethereum transaction and a schedule, each receipt SUCCESS, and each transaction on the REST API within a record
 * file's period of its receipt, with the consensus time, fee, hash and transfers its record reports.
 */
import {
  AccountCreateTransaction,
  type AccountId,
  ContractCallQuery,
  ContractCreateTransaction,
  ContractExecuteTransaction,
  ContractFunctionParameters,
  EthereumTransaction,
  EthereumTransactionData,
  FileAppendTransaction,
  FileContentsQuery,
  FileCreateTransaction,
  type FileId,
  Hbar,
  PrivateKey,
  ScheduleCreateTransaction,
  ScheduleSignTransaction,
  Status,
  Timestamp,
  TokenAssociateTransaction,
  TokenBurnTransaction,
  TokenCreateTransaction,
  TokenMintTransaction,
  TokenType,
  TopicCreateTransaction,
  TopicMessageQuery,
  TopicMessageSubmitTransaction,
  TransactionReceiptQuery,
  type TransactionRecord,
  type TransactionResponse,
  TransferTransaction,
} from '@hiero-ledger/sdk';
import { describe, expect, it } from 'vitest';
import { useLocalNetwork, VISIBLE_WITHIN_MS } from '../../test/harness/local-network.ts';
import { registerWorkerSuite } from '../../test/harness/worker-suite.ts';
import { artifact, callData, fromHex, word } from '../evm/abi.ts';
import { signEthereumCall } from '../evm/ethereum-tx.ts';
import { GAS_PRICE_TINYBARS } from '../network/fees.ts';

const { db, worker } = registerWorkerSuite();

const local = useLocalNetwork(() => db.url);

/** The REST API's form of a transaction id: `0.0.2-1700000000-000000001`. */
function restTransactionId(id: string): string {
  const [payer, start = ''] = id.split('@');
  const [seconds, nanos = '0'] = start.split('.');
  return `${payer}-${seconds}-${nanos.padStart(9, '0')}`;
}

const timestampText = (timestamp: Timestamp) =>
  `${timestamp.seconds.toString()}.${timestamp.nanos.toString().padStart(9, '0')}`;

interface RestTransaction {
  consensus_timestamp: string;
  charged_tx_fee: number;
  transaction_hash: string;
  result: string;
  name: string;
  scheduled: boolean;
  entity_id: string | null;
  transfers: { account: string; amount: number }[];
}

/** Polls the REST API for a transaction until it is there; fails when that takes longer than a file's period. */
async function restTransaction(id: string, scheduled = false): Promise<RestTransaction> {
  const deadline = Date.now() + VISIBLE_WITHIN_MS;
  for (;;) {
    const response = await worker.get(
      `/api/v1/transactions/${restTransactionId(id)}${scheduled ? '?scheduled=true' : ''}`,
    );
    if (response.status === 200) return response.body.transactions[0];
    if (Date.now() > deadline)
      throw new Error(`${id} is not on the REST API ${VISIBLE_WITHIN_MS} ms after its receipt`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The record's fields as the REST API shows them, compared. */
function expectSameAsRecord(rest: RestTransaction, record: TransactionRecord): void {
  expect(rest.result).toBe('SUCCESS');
  expect(rest.consensus_timestamp).toBe(timestampText(record.consensusTimestamp));
  expect(String(rest.charged_tx_fee)).toBe(record.transactionFee.toTinybars().toString());
  expect(rest.transaction_hash).toBe(Buffer.from(record.transactionHash).toString('base64'));
  const recordTransfers = record.transfers.map((t) => `${t.accountId.toString()}:${t.amount.toTinybars().toString()}`);
  const restTransfers = rest.transfers.map((t) => `${t.account}:${t.amount}`);
  expect(restTransfers.sort()).toEqual(recordTransfers.sort());
}

/** Receipt SUCCESS, then the record, then the REST API shows what the record says. */
async function settle(response: TransactionResponse) {
  const receipt = await response.getReceipt(local.client);
  expect(receipt.status).toBe(Status.Success);
  const record = await response.getRecord(local.client);
  expectSameAsRecord(await restTransaction(response.transactionId.toString()), record);
  return { receipt, record };
}

describe('the local network, through the official SDK', () => {
  it('runs every family of transaction a wallet uses, each on the REST API within a file', async () => {
    const edKey = PrivateKey.generateED25519();
    const ecKey = PrivateKey.generateECDSA();
    const ed = (
      await settle(
        await new AccountCreateTransaction()
          .setKeyWithoutAlias(edKey.publicKey)
          .setInitialBalance(new Hbar(50))
          .execute(local.client),
      )
    ).receipt.accountId as AccountId;
    const ecCreate = await new AccountCreateTransaction()
      .setECDSAKeyWithAlias(ecKey)
      .setInitialBalance(new Hbar(50))
      .freezeWith(local.client)
      .sign(ecKey);
    const ec = (await settle(await ecCreate.execute(local.client))).receipt.accountId as AccountId;
    const ecAccount = await worker.get(`/api/v1/accounts/${ec.toString()}`);
    expect(ecAccount.body.evm_address).toBe(`0x${ecKey.publicKey.toEvmAddress()}`);

    await settle(
      await new TransferTransaction()
        .addHbarTransfer('0.0.2', new Hbar(-5))
        .addHbarTransfer(ed, new Hbar(5))
        .execute(local.client),
    );

    const tokenCreate = await new TokenCreateTransaction()
      .setTokenName('Local Coin')
      .setTokenSymbol('LOC')
      .setDecimals(2)
      .setInitialSupply(100_000)
      .setTreasuryAccountId(ed)
      .setAdminKey(edKey.publicKey)
      .setSupplyKey(edKey.publicKey)
      .freezeWith(local.client)
      .sign(edKey);
    const coin = (await settle(await tokenCreate.execute(local.client))).receipt.tokenId;
    const nftCreate = await new TokenCreateTransaction()
      .setTokenName('Local Art')
      .setTokenSymbol('ART')
      .setTokenType(TokenType.NonFungibleUnique)
      .setTreasuryAccountId(ed)
      .setSupplyKey(edKey.publicKey)
      .freezeWith(local.client)
      .sign(edKey);
    const art = (await settle(await nftCreate.execute(local.client))).receipt.tokenId;
    if (!coin || !art) throw new Error('no token ids in the receipts');

    const associate = await new TokenAssociateTransaction()
      .setAccountId(ec)
      .setTokenIds([coin, art])
      .freezeWith(local.client)
      .sign(ecKey);
    await settle(await associate.execute(local.client));
    const mint = await new TokenMintTransaction()
      .setTokenId(coin)
      .setAmount(5_000)
      .freezeWith(local.client)
      .sign(edKey);
    expect((await settle(await mint.execute(local.client))).receipt.totalSupply?.toString()).toBe('105000');
    const mintNfts = await new TokenMintTransaction()
      .setTokenId(art)
      .setMetadata([Buffer.from('one'), Buffer.from('two')])
      .freezeWith(local.client)
      .sign(edKey);
    expect((await settle(await mintNfts.execute(local.client))).receipt.serials.map(String)).toEqual(['1', '2']);
    const move = await new TransferTransaction()
      .addTokenTransfer(coin, ed, -2_500)
      .addTokenTransfer(coin, ec, 2_500)
      .addNftTransfer(art, 1, ed, ec)
      .freezeWith(local.client)
      .sign(edKey);
    await settle(await move.execute(local.client));
    const burn = await new TokenBurnTransaction().setTokenId(coin).setAmount(500).freezeWith(local.client).sign(edKey);
    await settle(await burn.execute(local.client));
    const burnNft = await new TokenBurnTransaction()
      .setTokenId(art)
      .setSerials([2])
      .freezeWith(local.client)
      .sign(edKey);
    await settle(await burnNft.execute(local.client));
    const balances = await worker.get(`/api/v1/tokens/${coin.toString()}/balances?account.id=${ec.toString()}`);
    expect(balances.status).toBe(200);
    const nft = await worker.get(`/api/v1/tokens/${art.toString()}/nfts/1`);
    expect(nft.body.account_id).toBe(ec.toString());

    const topicCreate = await new TopicCreateTransaction()
      .setTopicMemo('local topic')
      .setAdminKey(edKey.publicKey)
      .setSubmitKey(ecKey.publicKey)
      .freezeWith(local.client)
      .sign(edKey);
    const topic = (await settle(await topicCreate.execute(local.client))).receipt.topicId;
    if (!topic) throw new Error('no topic id');
    const received: string[] = [];
    const subscription = new TopicMessageQuery()
      .setTopicId(topic)
      .setStartTime(Timestamp.fromDate(new Date(0)))
      .subscribe(local.client, null, (message) => received.push(Buffer.from(message.contents).toString()));
    const submit = await new TopicMessageSubmitTransaction()
      .setTopicId(topic)
      .setMessage('hello, local network')
      .freezeWith(local.client)
      .sign(ecKey);
    const submitted = await settle(await submit.execute(local.client));
    expect(submitted.receipt.topicSequenceNumber?.toString()).toBe('1');
    for (let waited = 0; received.length === 0 && waited < VISIBLE_WITHIN_MS; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    subscription.unsubscribe();
    expect(received).toEqual(['hello, local network']);

    const fileCreate = await new FileCreateTransaction()
      .setKeys([edKey.publicKey])
      .setContents('first part, ')
      .freezeWith(local.client)
      .sign(edKey);
    const file = (await settle(await fileCreate.execute(local.client))).receipt.fileId;
    if (!file) throw new Error('no file id');
    const append = await new FileAppendTransaction()
      .setFileId(file)
      .setContents('second part')
      .freezeWith(local.client)
      .sign(edKey);
    await settle(await append.execute(local.client));
    expect(Buffer.from(await new FileContentsQuery().setFileId(file).execute(local.client)).toString()).toBe(
      'first part, second part',
    );

    const counter = artifact('Counter');
    const deploy = await new ContractCreateTransaction()
      .setBytecode(fromHex(counter.initcode))
      .setConstructorParameters(new ContractFunctionParameters().addUint256(10))
      .setGas(400_000)
      .setAdminKey(edKey.publicKey)
      .freezeWith(local.client)
      .sign(edKey);
    const contract = (await settle(await deploy.execute(local.client))).receipt.contractId;
    if (!contract) throw new Error('no contract id');
    await settle(
      await new ContractExecuteTransaction()
        .setContractId(contract)
        .setGas(100_000)
        .setFunction('increment', new ContractFunctionParameters().addUint256(5))
        .execute(local.client),
    );
    const count = await new ContractCallQuery()
      .setContractId(contract)
      .setGas(50_000)
      .setFunction('count')
      .execute(local.client);
    expect(count.getUint256(0).toString()).toBe('15');

    const { raw } = signEthereumCall(
      {
        type: 2,
        nonce: 0n,
        gasPrice: GAS_PRICE_TINYBARS * 10_000_000_000n,
        gasLimit: 100_000n,
        to: fromHex(contract.toEvmAddress()),
        data: callData(counter, 'increment(uint256)', [word(7n)]),
      },
      fromHex(ecKey.toStringRaw()),
    );
    const ethereum = await new EthereumTransaction()
      .setEthereumData(raw)
      .setMaxGasAllowanceHbar(new Hbar(5))
      .execute(local.client);
    const { record: ethereumRecord } = await settle(ethereum);
    expect(ethereumRecord.contractFunctionResult?.signerNonce?.toString()).toBe('1');
    const after = await new ContractCallQuery()
      .setContractId(contract)
      .setGas(50_000)
      .setFunction('count')
      .execute(local.client);
    expect(after.getUint256(0).toString()).toBe('22');
    const hash = `0x${Buffer.from(ethereumRecord.ethereumHash ?? new Uint8Array()).toString('hex')}`;
    const result = await worker.get(`/api/v1/contracts/results/${hash}`);
    expect(result.status).toBe(200);
    // The REST API names the sender by its entity's long-zero address, as the reference does.
    const sender = `0x${ec.num.toString(16).padStart(40, '0')}`;
    expect(result.body).toMatchObject({ hash, result: 'SUCCESS', from: sender });

    const scheduled = new TransferTransaction().addHbarTransfer(ed, new Hbar(-1)).addHbarTransfer('0.0.2', new Hbar(1));
    const scheduleCreate = await new ScheduleCreateTransaction()
      .setScheduledTransaction(scheduled)
      .setScheduleMemo('pay back')
      .execute(local.client);
    const created = (await settle(scheduleCreate)).receipt;
    const schedule = created.scheduleId;
    if (!schedule || !created.scheduledTransactionId) throw new Error('no schedule');
    const sign = await new ScheduleSignTransaction().setScheduleId(schedule).freezeWith(local.client).sign(edKey);
    await settle(await sign.execute(local.client));
    const executed = await new TransactionReceiptQuery()
      .setTransactionId(created.scheduledTransactionId)
      .execute(local.client);
    expect(executed.status).toBe(Status.Success);
    const execution = await restTransaction(created.scheduledTransactionId.toString().replace('?scheduled', ''), true);
    expect(execution.scheduled).toBe(true);
    expect(execution.result).toBe('SUCCESS');
    expect(execution.transfers).toContainEqual(
      expect.objectContaining({ account: ed.toString(), amount: -100_000_000 }),
    );
  }, 300_000);

  it("takes a relay's eth_sendRawTransaction of a contract deployment, its call data in a file, and the mirror answers its receipt", async () => {
    const key = PrivateKey.generateECDSA();
    const create = await new AccountCreateTransaction()
      .setECDSAKeyWithAlias(key)
      .setInitialBalance(new Hbar(100))
      .freezeWith(local.client)
      .sign(key);
    await (await create.execute(local.client)).getReceipt(local.client);
    // A deployment larger than the relay's file chunk (5,120 bytes): Counter(10), its constructor argument padded.
    const counter = artifact('Counter');
    const data = new Uint8Array([...fromHex(counter.initcode), ...word(10n), ...new Uint8Array(6_000)]);
    const { raw, hash } = signEthereumCall(
      {
        type: 2,
        nonce: 0n,
        gasPrice: GAS_PRICE_TINYBARS * 10_000_000_000n,
        gasLimit: 1_000_000n,
        to: new Uint8Array(),
        data,
      },
      fromHex(key.toStringRaw()),
    );

    // What the relay's sendRawTransaction does with it (hiero-json-rpc-relay, SDKClient.submitEthereumTransaction).
    const FILE_APPEND_CHUNK_SIZE = 5_120;
    const ethereumData = EthereumTransactionData.fromBytes(raw);
    const transaction = new EthereumTransaction();
    let fileId: FileId | null = null;
    if (ethereumData.callData.length <= FILE_APPEND_CHUNK_SIZE) transaction.setEthereumData(ethereumData.toBytes());
    else {
      const hexed = Buffer.from(ethereumData.callData).toString('hex');
      const fileCreate = await new FileCreateTransaction()
        .setContents(hexed.substring(0, FILE_APPEND_CHUNK_SIZE))
        .setKeys([local.client.operatorPublicKey as PrivateKey['publicKey']])
        .execute(local.client);
      fileId = (await fileCreate.getReceipt(local.client)).fileId;
      if (!fileId) throw new Error('no file id');
      if (hexed.length > FILE_APPEND_CHUNK_SIZE) {
        await (
          await new FileAppendTransaction()
            .setFileId(fileId)
            .setContents(hexed.substring(FILE_APPEND_CHUNK_SIZE))
            .setChunkSize(FILE_APPEND_CHUNK_SIZE)
            .setMaxChunks(20)
            .execute(local.client)
        ).getReceipt(local.client);
      }
      ethereumData.callData = new Uint8Array();
      transaction.setEthereumData(ethereumData.toBytes()).setCallDataFileId(fileId);
    }
    expect(fileId).not.toBeNull();
    transaction.setMaxTransactionFee(Hbar.fromTinybars(Math.floor(Number(GAS_PRICE_TINYBARS) * 15_000_000)));
    transaction.setMaxGasAllowanceHbar(new Hbar(10));
    const submitted = await transaction.execute(local.client);

    // The relay's eth_getTransactionReceipt: the contract result the mirror has for the transaction hash.
    const txHash = `0x${Buffer.from(hash).toString('hex')}`;
    const deadline = Date.now() + VISIBLE_WITHIN_MS;
    let result = await worker.get(`/api/v1/contracts/results/${txHash}`);
    while (result.status === 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await worker.get(`/api/v1/contracts/results/${txHash}`);
    }
    expect(result.status).toBe(200);
    const receipt = await submitted.getReceipt(local.client);
    const contract = receipt.contractId;
    if (!contract) throw new Error('no contract id in the receipt');
    expect(result.body).toMatchObject({
      hash: txHash,
      result: 'SUCCESS',
      status: '0x1',
      contract_id: contract.toString(),
      created_contract_ids: [contract.toString()],
      nonce: 0,
    });
    const count = await new ContractCallQuery()
      .setContractId(contract)
      .setGas(50_000)
      .setFunction('count')
      .execute(local.client);
    expect(count.getUint256(0).toString()).toBe('10');
  }, 120_000);
});
