/**
 * A node's life of a transaction, without gRPC: precheck accepts a signed transfer, its receipt is UNKNOWN until
 * consensus and SUCCESS after, an unknown id is RECEIPT_NOT_FOUND, the same bytes again are a duplicate, a record
 * costs a payment, and what consensus hands the record stream is the client's own signed bytes.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { SimEvm } from '../evm/evm.ts';
import { GENESIS_PRIVATE_KEY, genesisKey } from '../network/genesis.ts';
import { Network } from '../network/network.ts';
import { Random } from '../random.ts';
import { NodeClient } from '../testing/node-client.ts';
import { ConsensusNode } from './consensus.ts';
import { code, nodeTypes } from './node-proto.ts';
import { answerQuery } from './queries/answer.ts';

const NOW_NS = 1_800_000_000_000_000_000n;
const seconds = (ns: bigint) => ({ seconds: String(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) });

function network() {
  const net = new Network({ random: new Random('node'), nodeCount: 4, tps: 10, startNs: NOW_NS });
  net.ledger.account(2n).key = genesisKey();
  const evm = new SimEvm();
  return { net, evm, consensus: new ConsensusNode(net, evm) };
}

function signedTransfer(validStartNs: bigint, amount = 1n) {
  const types = nodeTypes();
  const transactionID = { transactionValidStart: seconds(validStartNs), accountID: { accountNum: 2 } };
  const body = {
    transactionID,
    nodeAccountID: { accountNum: 3 },
    transactionFee: 100_000_000,
    transactionValidDuration: { seconds: 120 },
    cryptoTransfer: {
      transfers: {
        accountAmounts: [
          { accountID: { accountNum: 2 }, amount: String(-amount) },
          { accountID: { accountNum: 98 }, amount: String(amount) },
        ],
      },
    },
  };
  const bodyBytes = types.TransactionBody.encode(types.TransactionBody.fromObject(body)).finish();
  const publicKey = ed25519.getPublicKey(GENESIS_PRIVATE_KEY);
  const sigMap = { sigPair: [{ pubKeyPrefix: publicKey, ed25519: ed25519.sign(bodyBytes, GENESIS_PRIVATE_KEY) }] };
  const signed = types.SignedTransaction.encode({ bodyBytes, sigMap }).finish();
  return { bytes: types.Transaction.encode({ signedTransactionBytes: signed }).finish(), signed, transactionID };
}

function query(field: string, body: Record<string, unknown>) {
  const type = nodeTypes().Query;
  return type.encode(type.fromObject({ [field]: body })).finish();
}

function response(bytes: Uint8Array): Record<string, Record<string, unknown>> {
  const type = nodeTypes().Response;
  return type.toObject(type.decode(bytes), { longs: String, enums: String }) as Record<string, Record<string, unknown>>;
}

describe('a consensus node', () => {
  it('accepts a signed transfer, answers UNKNOWN until consensus and SUCCESS after, and streams its own bytes', async () => {
    const { net, evm, consensus } = network();
    const transfer = signedTransfer(NOW_NS - 5_000_000_000n);
    const context = { consensus, evm, nodeId: 0, nowNs: NOW_NS };
    const receipt = () => query('transactionGetReceipt', { transactionID: transfer.transactionID });

    expect(response(await answerQuery(receipt(), context)).transactionGetReceipt?.header).toMatchObject({
      nodeTransactionPrecheckCode: 'RECEIPT_NOT_FOUND',
    });
    expect(consensus.submit(transfer.bytes, 0, NOW_NS)).toBe(code('OK'));
    expect(consensus.submit(transfer.bytes, 0, NOW_NS)).toBe(code('DUPLICATE_TRANSACTION'));
    const pending = response(await answerQuery(receipt(), context)).transactionGetReceipt;
    expect(pending?.receipt).toMatchObject({ status: 'UNKNOWN' });

    await consensus.handleQueued(NOW_NS);
    const done = response(await answerQuery(receipt(), context)).transactionGetReceipt;
    expect(done?.receipt).toMatchObject({ status: 'SUCCESS' });
    const [item] = net.drain();
    expect(Buffer.from(item?.signedTransactionBytes ?? []).equals(Buffer.from(transfer.signed))).toBe(true);
    expect(item?.record.transactionFee).toBeGreaterThan(0);
  });

  it('answers a record query without payment with INSUFFICIENT_TX_FEE and a cost query with the cost', async () => {
    const { evm, consensus } = network();
    const transfer = signedTransfer(NOW_NS - 5_000_000_000n);
    consensus.submit(transfer.bytes, 0, NOW_NS);
    await consensus.handleQueued(NOW_NS);
    const context = { consensus, evm, nodeId: 0, nowNs: NOW_NS };
    const unpaid = response(
      await answerQuery(query('transactionGetRecord', { transactionID: transfer.transactionID }), context),
    );
    expect(unpaid.transactionGetRecord?.header).toMatchObject({ nodeTransactionPrecheckCode: 'INSUFFICIENT_TX_FEE' });
    const cost = response(
      await answerQuery(
        query('transactionGetRecord', {
          header: { responseType: 'COST_ANSWER' },
          transactionID: transfer.transactionID,
        }),
        context,
      ),
    );
    expect(cost.transactionGetRecord?.header).toMatchObject({ nodeTransactionPrecheckCode: 'OK' });
    expect(Number((cost.transactionGetRecord?.header as { cost?: string } | undefined)?.cost)).toBeGreaterThan(0);
  });

  it('refuses a transfer of more than the payer holds in its receipt, moving nothing but the fee', async () => {
    const { net, consensus } = network();
    const before = net.ledger.account(98n).balance;
    // All the hbar 0.0.2 holds, leaving nothing for the fee.
    const greedy = signedTransfer(NOW_NS - 5_000_000_000n, net.ledger.account(2n).balance);
    expect(consensus.submit(greedy.bytes, 0, NOW_NS)).toBe(code('OK'));
    await consensus.handleQueued(NOW_NS);
    const [item] = net.drain();
    expect((item?.record.receipt as { status: number } | undefined)?.status).toBe(code('INSUFFICIENT_ACCOUNT_BALANCE'));
    const fee = BigInt(String(item?.record.transactionFee));
    // 0.0.98 gets the fee's share only, not the amount asked for.
    expect(net.ledger.account(98n).balance - before).toBeLessThan(fee);
  });

  it('answers INVALID_SIGNATURE for a debit its owner did not sign before looking at what the owner holds', async () => {
    const client = new NodeClient();
    const poor = await client.account({}, 1n);
    const debit = (amount: bigint) => ({
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: poor.id, amount: String(-amount) },
            { accountID: { accountNum: '2' }, amount: String(amount) },
          ],
        },
      },
    });
    expect((await client.run(debit(1_000_000_000n))).status).toBe('INVALID_SIGNATURE');
    expect((await client.run(debit(1_000_000_000n), [poor.key.privateKey])).status).toBe(
      'INSUFFICIENT_ACCOUNT_BALANCE',
    );
  });

  it('names a receiver missing its association before a sender short of units, as the node steps through a transfer', async () => {
    const client = new NodeClient();
    const [treasury, sender, receiver] = [await client.account(), await client.account(), await client.account()];
    const created = await client.run(
      { tokenCreation: { name: 'C', symbol: 'C', initialSupply: '10', treasury: treasury.id } },
      [treasury.key.privateKey],
    );
    const token = created.receipt.tokenID;
    await client.run({ tokenAssociate: { account: sender.id, tokens: [token] } }, [sender.key.privateKey]);
    const transfer = {
      cryptoTransfer: {
        tokenTransfers: [
          {
            token,
            transfers: [
              { accountID: sender.id, amount: '-1' },
              { accountID: receiver.id, amount: '1' },
            ],
          },
        ],
      },
    };
    expect((await client.run(transfer, [sender.key.privateKey])).status).toBe('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  });

  it('answers an approved debit without an allowance apart from one beyond it', async () => {
    const client = new NodeClient();
    const [owner, spender] = [await client.account(), await client.account()];
    const spend = (amount: number) => ({
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: owner.id, amount: String(-amount), is_approval: true },
            { accountID: spender.id, amount: String(amount) },
          ],
        },
      },
    });
    expect((await client.run(spend(10), [spender.key.privateKey], spender.num)).status).toBe(
      'SPENDER_DOES_NOT_HAVE_ALLOWANCE',
    );
    const approve = {
      cryptoApproveAllowance: { cryptoAllowances: [{ owner: owner.id, spender: spender.id, amount: 5 }] },
    };
    expect((await client.run(approve, [owner.key.privateKey])).status).toBe('SUCCESS');
    expect((await client.run(spend(10), [spender.key.privateKey], spender.num)).status).toBe(
      'AMOUNT_EXCEEDS_ALLOWANCE',
    );
    expect((await client.run(spend(5), [spender.key.privateKey], spender.num)).status).toBe('SUCCESS');
  });
});
