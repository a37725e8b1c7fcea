/**
 * The cases a consensus node refuses, through the official SDK against the simulated network's nodes: a wrong
 * signature, a start outside the valid window, a duplicate, a payer that cannot pay or offers too little, a node
 * account that is not the node's get the node's precheck codes; a missing signature of a key the transaction needs
 * passes precheck and fails in its receipt, charging the payer the fee and nothing else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AccountBalanceQuery,
  AccountCreateTransaction,
  AccountId,
  Client,
  Hbar,
  PrivateKey,
  Status,
  Timestamp,
  TokenAssociateTransaction,
  TokenCreateTransaction,
  TransactionId,
  TransactionReceiptQuery,
  TransferTransaction,
} from '@hiero-ledger/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isPortFree } from '../../scripts/local-stack/free-port.ts';
import { parseOptions } from '../main.ts';
import { GENESIS_PRIVATE_KEY_DER } from '../network/genesis.ts';
import { simulate } from '../run.ts';

const out = mkdtempSync(path.join(tmpdir(), 'precheck-'));
const controller = new AbortController();
let run: Promise<unknown>;
let port = 0;
const genesis = PrivateKey.fromStringDer(GENESIS_PRIVATE_KEY_DER);
const clients: Client[] = [];

function client(
  operator: { id: string | AccountId; key: PrivateKey } = { id: '0.0.2', key: genesis },
  nodeAccount = '0.0.3',
) {
  const made = Client.forNetwork({ [`127.0.0.1:${port}`]: nodeAccount })
    .setOperator(operator.id, operator.key)
    .setMaxAttempts(1);
  clients.push(made);
  return made;
}

/** The precheck status an execution failed with (the SDK throws a PrecheckStatusError). */
async function precheckOf(execution: Promise<unknown>): Promise<string> {
  try {
    await execution;
  } catch (error) {
    const { status, message } = error as { status?: unknown; message?: string };
    return String(status ?? message ?? error);
  }
  return 'OK';
}

beforeAll(async () => {
  do port = await freePort();
  while (!(await isPortFree(port + 1)));
  let listening: () => void = () => {};
  const up = new Promise<void>((resolve) => {
    listening = resolve;
  });
  run = simulate({
    ...parseOptions(['--out', out, '--live', '--nodes', '2', '--node-port', String(port), '--load', 'off']),
    signal: controller.signal,
    onNodes: () => listening(),
  });
  await up;
});

afterAll(async () => {
  for (const made of clients) made.close();
  controller.abort();
  await run;
  rmSync(out, { recursive: true, force: true });
});

describe('precheck and receipt statuses of refused transactions', () => {
  it('answers INVALID_SIGNATURE to a transaction the payer did not sign', async () => {
    const impostor = client({ id: '0.0.2', key: PrivateKey.generateED25519() });
    const transfer = new TransferTransaction().addHbarTransfer('0.0.2', -1).addHbarTransfer('0.0.98', 1);
    expect(await precheckOf(transfer.execute(impostor))).toBe('INVALID_SIGNATURE');
  });

  it('answers TRANSACTION_EXPIRED before the window and INVALID_TRANSACTION_START after it', async () => {
    const operator = client();
    const at = (offsetSeconds: number) =>
      TransactionId.withValidStart(
        AccountId.fromString('0.0.2'),
        Timestamp.fromDate(new Date(Date.now() + offsetSeconds * 1000)),
      );
    const transfer = (offset: number) =>
      new TransferTransaction()
        .setTransactionId(at(offset))
        .addHbarTransfer('0.0.2', -1)
        .addHbarTransfer('0.0.98', 1)
        .execute(operator);
    expect(await precheckOf(transfer(-300))).toBe('TRANSACTION_EXPIRED');
    expect(await precheckOf(transfer(60))).toBe('INVALID_TRANSACTION_START');
  });

  it('answers DUPLICATE_TRANSACTION to the same transaction sent again, and keeps the first', async () => {
    const operator = client();
    const transfer = new TransferTransaction()
      .addHbarTransfer('0.0.2', -1)
      .addHbarTransfer('0.0.98', 1)
      .freezeWith(operator);
    const first = await transfer.execute(operator);
    expect(await precheckOf(TransferTransaction.fromBytes(transfer.toBytes()).execute(operator))).toBe(
      'DUPLICATE_TRANSACTION',
    );
    expect((await first.getReceipt(operator)).status).toBe(Status.Success);
  });

  it('answers INSUFFICIENT_PAYER_BALANCE to a payer without the fee and INSUFFICIENT_TX_FEE to a fee offered too low', async () => {
    const operator = client();
    const key = PrivateKey.generateED25519();
    const created = await (
      await new AccountCreateTransaction().setKeyWithoutAlias(key.publicKey).execute(operator)
    ).getReceipt(operator);
    const pauper = client({ id: created.accountId as AccountId, key });
    const transfer = () =>
      new TransferTransaction().addHbarTransfer(created.accountId as AccountId, -1).addHbarTransfer('0.0.2', 1);
    expect(await precheckOf(transfer().execute(pauper))).toBe('INSUFFICIENT_PAYER_BALANCE');
    const stingy = new TransferTransaction()
      .addHbarTransfer('0.0.2', -1)
      .addHbarTransfer('0.0.98', 1)
      .setMaxTransactionFee(Hbar.fromTinybars(1));
    expect(await precheckOf(stingy.execute(operator))).toBe('INSUFFICIENT_TX_FEE');
  });

  it('answers INVALID_NODE_ACCOUNT to a transaction for another node', async () => {
    const misrouted = client(undefined, '0.0.4');
    const transfer = new TransferTransaction().addHbarTransfer('0.0.2', -1).addHbarTransfer('0.0.98', 1);
    // The SDK retries this code on another node; with one attempt it reports it as the last error.
    expect(await precheckOf(transfer.execute(misrouted))).toMatch(/INVALID_NODE_ACCOUNT/);
  });

  it('fails a transaction missing a required signature in its receipt, leaving the account as it was', async () => {
    const operator = client();
    const key = PrivateKey.generateED25519();
    const account = (
      await (
        await new AccountCreateTransaction()
          .setKeyWithoutAlias(key.publicKey)
          .setInitialBalance(new Hbar(5))
          .execute(operator)
      ).getReceipt(operator)
    ).accountId as AccountId;
    const token = (
      await (
        await new TokenCreateTransaction()
          .setTokenName('T')
          .setTokenSymbol('T')
          .setTreasuryAccountId('0.0.2')
          .execute(operator)
      ).getReceipt(operator)
    ).tokenId;
    if (!token) throw new Error('no token');
    const before = await new AccountBalanceQuery().setAccountId(account).execute(operator);
    // The account's own key never signs: 0.0.2 pays, which passes precheck.
    const unsigned = await new TokenAssociateTransaction().setAccountId(account).setTokenIds([token]).execute(operator);
    const receipt = await new TransactionReceiptQuery()
      .setTransactionId(unsigned.transactionId)
      .setValidateStatus(false)
      .execute(operator);
    expect(receipt.status).toBe(Status.InvalidSignature);
    const after = await new AccountBalanceQuery().setAccountId(account).execute(operator);
    expect(after.hbars.toTinybars().toString()).toBe(before.hbars.toTinybars().toString());
    expect(after.tokens?.get(token) ?? null).toBeNull();
  });
});
