/** For tests: the protobuf bytes of scheduled bodies and of SignatureMaps, as the ledger and HSS callers hold them. */

const varint = (value: bigint): number[] => {
  const out: number[] = [];
  let rest = value;
  do {
    out.push(Number(rest & 0x7fn) | (rest > 0x7fn ? 0x80 : 0));
    rest >>= 7n;
  } while (rest > 0n);
  return out;
};

export const varintField = (number: number, value: bigint): number[] => [
  ...varint(BigInt(number << 3)),
  ...varint(value),
];

export const messageField = (number: number, body: readonly number[]): number[] => [
  ...varint(BigInt((number << 3) | 2)),
  ...varint(BigInt(body.length)),
  ...body,
];

const accountId = (num: bigint) => varintField(3, num);
const zigzag = (value: bigint) => (value < 0n ? -value * 2n - 1n : value * 2n);

/** A SchedulableTransactionBody of a CryptoTransfer (field 9) of hbar: [account number, tinybars] pairs. */
export function hbarTransferBody(adjusts: readonly (readonly [bigint, bigint])[]): Uint8Array {
  const amounts = adjusts.flatMap(([num, amount]) =>
    messageField(1, [...messageField(1, accountId(num)), ...varintField(2, zigzag(amount))]),
  );
  return Uint8Array.from(messageField(9, messageField(1, amounts)));
}

/** A SchedulableTransactionBody of a ContractCall (field 3) of contract 0.0.`num` with no value. */
export function contractCallBody(num: bigint, gas: bigint, data: Uint8Array): Uint8Array {
  return Uint8Array.from(
    messageField(3, [...messageField(1, varintField(3, num)), ...varintField(2, gas), ...messageField(4, [...data])]),
  );
}

/** A SchedulableTransactionBody of a fungible TokenCreate (field 22) of 500 units to `treasury`, renewed every 90 days. */
export function tokenCreateBody(treasury: bigint): Uint8Array {
  const text = (number: number, value: string) => messageField(number, [...new TextEncoder().encode(value)]);
  return Uint8Array.from(
    messageField(22, [
      ...text(1, 'Planned'),
      ...text(2, 'PLN'),
      ...varintField(3, 2n),
      ...varintField(4, 500n),
      ...messageField(5, accountId(treasury)),
      ...messageField(15, varintField(1, 7_776_000n)),
    ]),
  );
}

/** A SchedulableTransactionBody of a TokenMint (field 29) of `amount` units of token 0.0.`token`. */
export function tokenMintBody(token: bigint, amount: bigint): Uint8Array {
  return Uint8Array.from(messageField(29, [...messageField(1, accountId(token)), ...varintField(2, amount)]));
}

/** A SchedulableTransactionBody of a kind HSS does not model: a TokenBurn (field 30) of 1 unit of token 0.0.77. */
export const TOKEN_BURN_BODY = Uint8Array.from(
  messageField(30, [...messageField(1, accountId(77n)), ...varintField(2, 1n)]),
);

/** A SignatureMap of full public keys and their signatures: `field` 3 for ED25519, 6 for ECDSA secp256k1. */
export function signatureMapOf(pairs: readonly { publicKey: Uint8Array; field: number; signature: Uint8Array }[]) {
  return Uint8Array.from(
    pairs.flatMap(({ publicKey, field, signature }) =>
      messageField(1, [...messageField(1, [...publicKey]), ...messageField(field, [...signature])]),
    ),
  );
}

/** What `signSchedule(address,bytes)` signatures sign: the schedule's shard, realm and number as big-endian longs. */
export function scheduleMessage(num: bigint): Uint8Array {
  const message = new Uint8Array(24);
  new DataView(message.buffer).setBigUint64(16, num);
  return message;
}
