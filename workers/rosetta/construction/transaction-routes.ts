/**
 * The Construction API's steps on a transaction's bytes (rosetta/app/services/construction_service.go):
 * `/construction/parse`, `/combine`, `/hash` and `/submit`. Where the reference's SDK would stop on a transaction
 * (none of its transactions signed, no payer with an account number, not exactly one node to add a signature for),
 * the answer is `Invalid transaction` (133).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha384 } from '@noble/hashes/sha2.js';
import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { hex } from '../../format/values.ts';
import { openTcpSocket } from '../../grpc-client/cloudflare-socket.ts';
import { RosettaError } from '../errors.ts';
import { goHexDecode } from '../go-json/hex.ts';
import { assertNetwork } from '../request/asserter.ts';
import { readRequest } from '../request/read.ts';
import { meshResponse } from '../respond.ts';
import { rosettaSettings } from '../settings.ts';
import { accountText } from './accounts.ts';
import { assertNotEmpty, assertRequest, assertSignatures } from './asserter.ts';
import { parse } from './constructors.ts';
import { ed25519SignaturePair, signedTransactionBytes, transactionListBytes } from './hapi/transaction-build.ts';
import type { SdkTransaction, SignedEntry } from './hapi/transaction-bytes.ts';
import { publicKeyDerHex, publicKeyFromBytes } from './keys.ts';
import { networkNodes } from './network-nodes.ts';
import { combineRequestSchema, hashRequestSchema, parseRequestSchema, submitRequestSchema } from './schemas.ts';
import { submit } from './submit.ts';
import { transactionFromHex } from './transaction-hex.ts';

const NOT_CACHED = 0;

/** The first signed transaction, which the SDK hashes and sends; 133 when the SDK could not build it. */
function firstSigned(transaction: SdkTransaction): SignedEntry {
  const signed = transaction.signed[0];
  const hasNode = transaction.body.nodeAccountID !== undefined || transaction.nodeAccounts.length > 0;
  if (!signed || transaction.transactionIds.length === 0 || !hasNode) throw RosettaError.of('InvalidTransaction');
  return signed;
}

/** `TransactionGetTransactionHash`: SHA-384 of the first signed transaction as the SDK writes it back. */
const hashOf = (transaction: SdkTransaction): string =>
  `0x${hex(sha384(signedTransactionBytes(firstSigned(transaction))))}`;

export const transactionRoutes = new Hono<AppEnv>()
  .post('/parse', async (c) => {
    const request = await readRequest(c, parseRequestSchema);
    assertNetwork(request.network_identifier, rosettaSettings(c.get('config')));
    assertRequest(() => assertNotEmpty(request.transaction, 'Transaction cannot be empty'));
    const transaction = transactionFromHex(request.transaction);
    const { operations, signers } = parse(transaction);
    const shown = request.signed ? signers.map((signer) => ({ address: accountText(signer) })) : [];
    return meshResponse(
      {
        ...(shown.length > 0 ? { signers: shown.map((signer) => signer.address) } : {}),
        operations,
        ...(shown.length > 0 ? { account_identifier_signers: shown } : {}),
        ...(transaction.memo !== '' ? { metadata: { memo: transaction.memo } } : {}),
      },
      NOT_CACHED,
    );
  })
  .post('/combine', async (c) => {
    const request = await readRequest(c, combineRequestSchema);
    assertNetwork(request.network_identifier, rosettaSettings(c.get('config')));
    // The SDK reads a payload's deprecated `address` as its account when it names none.
    for (const signature of request.signatures ?? []) {
      const payload = signature?.signing_payload;
      if (payload && !payload.account_identifier && payload.address !== '') {
        payload.account_identifier = { address: payload.address };
      }
    }
    assertRequest(() => {
      assertNotEmpty(request.unsigned_transaction, 'UnsignedTransaction cannot be empty');
      assertSignatures(request.signatures);
    });
    const signatures = request.signatures ?? [];
    if (signatures.length === 0) throw RosettaError.of('NoSignature');
    const transaction = transactionFromHex(request.unsigned_transaction);
    const body = firstSigned(transaction).bodyBytes;
    const signedBy = new Set(transaction.signedBy);
    const pairs: Uint8Array[] = [];
    for (const signature of signatures) {
      const {
        signature_type: type,
        public_key: publicKey,
        hex_bytes: bytes,
      } = signature as NonNullable<(typeof signatures)[number]>;
      if (type !== 'ed25519') throw RosettaError.of('InvalidSignatureType');
      const key = publicKeyFromBytes(goHexDecode((publicKey as { hex_bytes: string }).hex_bytes) as Uint8Array);
      // An ECDSA key cannot check an ED25519 signature (the reference's ed25519.Verify stops on its length).
      if (key?.curve !== 'edwards25519') throw RosettaError.of('InvalidPublicKey');
      const signatureBytes = goHexDecode(bytes) as Uint8Array;
      let valid = false;
      try {
        valid = ed25519.verify(signatureBytes, body, key.raw, { zip215: false });
      } catch {
        valid = false;
      }
      if (!valid) throw RosettaError.of('InvalidSignatureVerification');
      if (transaction.nodeAccounts.length !== 1) throw RosettaError.of('InvalidTransaction');
      if (signedBy.has(publicKeyDerHex(key))) continue;
      signedBy.add(publicKeyDerHex(key));
      pairs.push(ed25519SignaturePair(key.raw, signatureBytes));
    }
    const signed = transaction.signed.map((entry) => signedTransactionBytes(entry, pairs));
    return meshResponse({ signed_transaction: `0x${hex(transactionListBytes(signed))}` }, NOT_CACHED);
  })
  .post('/hash', async (c) => {
    const request = await readRequest(c, hashRequestSchema);
    assertNetwork(request.network_identifier, rosettaSettings(c.get('config')));
    assertRequest(() => assertNotEmpty(request.signed_transaction, 'SignedTransaction cannot be empty'));
    const transaction = transactionFromHex(request.signed_transaction);
    return meshResponse({ transaction_identifier: { hash: hashOf(transaction) } }, NOT_CACHED);
  })
  .post('/submit', async (c) => {
    const request = await readRequest(c, submitRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertRequest(() =>
      assertNotEmpty(request.signed_transaction, 'ConstructionSubmitRequest.SignedTransaction is empty'),
    );
    if (!settings.online) throw RosettaError.of('EndpointNotSupportedInOfflineMode');
    const transaction = transactionFromHex(request.signed_transaction);
    const hash = hashOf(transaction);
    await submit(transaction, await networkNodes(c), openTcpSocket);
    return meshResponse({ transaction_identifier: { hash } }, NOT_CACHED);
  });
