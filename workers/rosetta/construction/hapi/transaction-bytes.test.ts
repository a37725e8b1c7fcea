import { sha384 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { CRYPTO_TRANSFER } from './messages.ts';
import { bodyBytes, ed25519SignaturePair, signedTransactionBytes, transactionListBytes } from './transaction-build.ts';
import { readTransaction, TransactionBytesError } from './transaction-bytes.ts';
import { Writer } from './wire.ts';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const hexOf = (value: Uint8Array) => Buffer.from(value).toString('hex');

/**
 * The reference's own test vectors (rosetta/app/services/construction_service_test.go): an unsigned transfer of 1000
 * tinybars from 0.0.123352 to 0.0.123518 through node 0.0.4, the same signed by the ED25519 key below, and its hash.
 */
const BODY =
  '0a140a0c08feafcb840610ae86c0db03120418d8c307120218041880c2d72f2202087872180a160a090a0418d8c30710cf0f0a090a0418fec40710d00f';
const UNSIGNED = `0a432a410a3d${BODY}1200`;
const PUBLIC_KEY = 'eba8cc093a83a4ca5e813e30d8c503babb35c22d57d34b6ec5ac0303a6aaba77';
const SIGNATURE =
  '793de745bc19dd8fe8e817891f51b8fe1e259c2e6428bd7fa075b181585a2d40e3666a7c9a1873abb5433ffe1414502836d8d37082eaf94a648b530e9fa78108';
const SIGNED = `0aaa012aa7010a3d${BODY}12660a640a20${PUBLIC_KEY}1a40${SIGNATURE}`;
const HASH = 'c371b00f25490004c01b7d50350aecacaf7569ca564955465aa2b48fafd68dda5f7f277465a5f1b862f438e630c30648';

describe('transaction bytes as the reference writes and reads them', () => {
  it('writes a frozen transfer byte for byte as the reference does', () => {
    const body = bodyBytes({
      payer: { shard: 0n, realm: 0n, num: 123352n },
      validStartNanos: 1620236286997196590n,
      nodeAccount: { shard: 0n, realm: 0n, num: 4n },
      fee: 100_000_000n,
      validDurationSeconds: 120n,
      memo: '',
      data: {
        kind: CRYPTO_TRANSFER,
        transfers: [
          { account: { shard: 0n, realm: 0n, num: 123352n }, amount: -1000n },
          { account: { shard: 0n, realm: 0n, num: 123518n }, amount: 1000n },
        ],
      },
    });
    expect(hexOf(body)).toBe(BODY);
    const signed = signedTransactionBytes({
      bodyBytes: body,
      pairs: [],
      useSerializedTxMessageHashAlgorithm: false,
      unknown: [],
    });
    expect(hexOf(transactionListBytes([signed]))).toBe(UNSIGNED);
  });

  it('reads the unsigned transfer: its kind, payer, node and body', () => {
    const transaction = readTransaction(bytes(UNSIGNED));
    expect(transaction.kind).toBe(CRYPTO_TRANSFER);
    expect(transaction.transactionIds).toEqual([
      { payer: { shard: 0n, realm: 0n, num: 123352n }, validStart: 1620236286997196590n, scheduled: false, nonce: 0 },
    ]);
    expect(transaction.nodeAccounts).toEqual([{ shard: 0n, realm: 0n, num: 4n }]);
    expect(hexOf(transaction.signed[0]?.bodyBytes as Uint8Array)).toBe(BODY);
  });

  it("adds a signature as the reference's combine does, and hashes the result to the reference's hash", () => {
    const transaction = readTransaction(bytes(UNSIGNED));
    const entry = transaction.signed[0] as NonNullable<(typeof transaction.signed)[0]>;
    const signed = signedTransactionBytes(entry, [ed25519SignaturePair(bytes(PUBLIC_KEY), bytes(SIGNATURE))]);
    expect(hexOf(transactionListBytes([signed]))).toBe(SIGNED);
    const read = readTransaction(bytes(SIGNED));
    expect(read.signedBy).toEqual([`302a300506032b6570032100${PUBLIC_KEY}`]);
    expect(hexOf(sha384(signedTransactionBytes(read.signed[0] as NonNullable<(typeof read.signed)[0]>)))).toBe(HASH);
  });

  it('keeps what it does not know in a signed transaction when it writes it back', () => {
    // The signed transaction with an unknown field 9 (varint 1) after its signature map.
    const inner = `0a3d${BODY}12004801`;
    const list = transactionListBytes([bytes(inner)]);
    const entry = readTransaction(list).signed[0] as NonNullable<ReturnType<typeof readTransaction>['signed'][0]>;
    expect(hexOf(signedTransactionBytes(entry))).toBe(inner);
  });

  /** A list of one signed transaction per body given. */
  const listOf = (...bodies: Writer[]) =>
    hexOf(
      transactionListBytes(
        bodies.map((body) => new Writer().bytes(1, body.finish()).message(2, new Writer()).finish()),
      ),
    );
  const withId = () => new Writer().message(1, new Writer().message(2, new Writer().int(3, 2n, true)));

  it.each([
    ['bytes that are not protobuf', 'deadbeaf'],
    ['an empty transaction (a body without a transaction id)', ''],
    ['a truncated list', UNSIGNED.slice(0, -4)],
    ['a body of a kind the SDK does not read (node stake update, 51)', listOf(withId().message(51, new Writer()))],
    ['a body without any kind', listOf(withId())],
    [
      'a memo that is not UTF-8',
      listOf(
        withId()
          .bytes(6, Uint8Array.from([0x80]))
          .message(14, new Writer()),
      ),
    ],
    [
      'a list whose transactions hold different bodies',
      listOf(withId().bytes(6, 'a').message(14, new Writer()), withId().bytes(6, 'b').message(14, new Writer())),
    ],
  ])('refuses %s as the SDK does', (_, hex) => {
    expect(() => readTransaction(bytes(hex))).toThrow(TransactionBytesError);
  });

  it('reads a list whose transactions differ only in their node', () => {
    const body = (node: bigint) =>
      withId()
        .message(2, new Writer().int(3, node, true))
        .message(14, new Writer());
    const transaction = readTransaction(bytes(listOf(body(3n), body(4n))));
    expect(transaction.nodeAccounts.map((n) => n.num)).toEqual([3n, 4n]);
    expect(transaction.signed).toHaveLength(2);
  });
});
