/**
 * The Mesh Go SDK's checks of Construction API requests (its `asserter` package: server.go, construction.go,
 * block.go, coin.go), run before the reference's service, with their messages word for word; each refusal is a code-0
 * error. The operation types it accepts are the reference's `SupportedOperationTypes` (rosetta/main.go builds the
 * asserter with them), not the longer list `/network/options` reports.
 */

import { hex } from '../../format/values.ts';
import { RosettaError } from '../errors.ts';
import { goHexDecode } from '../go-json/hex.ts';
import { goJson } from '../go-json/marshal.ts';
import { printStruct } from '../go-json/print-struct.ts';
import { accountIdentifierSchema } from '../request/schemas.ts';
import {
  amountSchema,
  type OperationRequest,
  operationIdentifierSchema,
  operationSchema,
  operationsSchema,
  type PublicKeyRequest,
  type SignatureRequest,
  type SigningPayloadRequest,
} from './schemas.ts';

/** rosetta/app/domain/types/constants.go `SupportedOperationTypes`. */
export const SUPPORTED_OPERATION_TYPES: readonly string[] = [
  'CRYPTOCREATEACCOUNT',
  'CRYPTOTRANSFER',
  'TOKENASSOCIATE',
  'TOKENBURN',
  'TOKENCREATION',
  'TOKENDELETION',
  'TOKENDISSOCIATE',
  'TOKENFREEZE',
  'TOKENGRANTKYC',
  'TOKENMINT',
  'TOKENREVOKEKYC',
  'TOKENUNFREEZE',
  'TOKENUPDATE',
  'TOKENWIPE',
];

const CURVE_TYPES = new Set(['secp256k1', 'secp256r1', 'edwards25519', 'tweedle', 'pallas']);
const SIGNATURE_TYPES = new Set(['ecdsa', 'ecdsa_recovery', 'ed25519', 'schnorr_1', 'schnorr_poseidon']);

/** A check's failure: the words Go's `fmt.Errorf` chain builds, outermost last. */
class Refusal extends Error {}

function refuse(message: string): never {
  throw new Refusal(message);
}

/** Runs `check`, prefixing a refusal with `context` (Go's `fmt.Errorf("…: %w", err)`). */
function within(context: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof Refusal) refuse(`${context}: ${error.message}`);
    throw error;
  }
}

/** Runs the SDK's checks; a refusal is answered as the reference's server answers it (code 0). */
export function assertRequest(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof Refusal) throw RosettaError.request(error.message);
    throw error;
  }
}

/** Hex as the SDK's own MarshalJSON writes `[]byte`: lowercase, no prefix (the input was checked to decode). */
const hexOf = (text: string): string => {
  const bytes = goHexDecode(text);
  return typeof bytes === 'string' ? text : hex(bytes);
};

/** `PrintStruct` of a *PublicKey (its own MarshalJSON). */
export function printPublicKey(key: PublicKeyRequest | undefined): string {
  return key === undefined ? 'null' : goJson({ hex_bytes: hexOf(key.hex_bytes), curve_type: key.curve_type });
}

function signingPayloadJson(payload: SigningPayloadRequest): Record<string, unknown> {
  const address = payload.account_identifier?.address ?? '';
  return {
    ...(address !== '' ? { address } : {}),
    hex_bytes: hexOf(payload.hex_bytes),
    ...(payload.account_identifier
      ? { account_identifier: JSON.parse(printStruct(accountIdentifierSchema, payload.account_identifier)) }
      : {}),
    ...(payload.signature_type !== '' ? { signature_type: payload.signature_type } : {}),
  };
}

/** `PrintStruct` of a *SigningPayload (its own MarshalJSON names the account twice). */
export function printSigningPayload(payload: SigningPayloadRequest | undefined): string {
  return payload === undefined ? 'null' : goJson(signingPayloadJson(payload));
}

/** `PrintStruct` of a []*Signature. */
export function printSignatures(signatures: readonly (SignatureRequest | undefined)[] | undefined): string {
  if (signatures === undefined) return 'null';
  return `[${signatures
    .map((signature) =>
      signature === undefined
        ? 'null'
        : goJson({
            hex_bytes: hexOf(signature.hex_bytes),
            signing_payload: signature.signing_payload ? signingPayloadJson(signature.signing_payload) : null,
            public_key: signature.public_key ? JSON.parse(printPublicKey(signature.public_key)) : null,
            signature_type: signature.signature_type,
          }),
    )
    .join(',')}]`;
}

/** `PublicKey`. */
export function checkPublicKey(key: PublicKeyRequest | undefined): void {
  if (!key) refuse('PublicKey cannot be nil');
  const bytes = goHexDecode(key.hex_bytes) as Uint8Array;
  if (bytes.length === 0) refuse('public key bytes cannot be empty');
  if (bytes.every((byte) => byte === 0)) refuse('public key bytes 0');
  if (!CURVE_TYPES.has(key.curve_type)) {
    refuse(`public key curve type ${goJson(key.curve_type)} is invalid: not a supported CurveType`);
  }
}

/** `PublicKey` as a request's own field or list wraps it. */
export function assertPublicKey(key: PublicKeyRequest | undefined): void {
  within(`public key ${printPublicKey(key)} is invalid`, () => checkPublicKey(key));
}

function checkAccount(account: OperationRequest['account']): void {
  if (!account) refuse('Account is nil');
  if (account.address === '') refuse('Account.Address is missing');
  if (account.sub_account && account.sub_account.address === '') refuse('Account.SubAccount.Address is missing');
}

function checkAmount(amount: NonNullable<OperationRequest['amount']>): void {
  if (amount.value === '') refuse('Amount.Value is missing');
  if (!/^[+-]?\d+$/.test(amount.value)) refuse('Amount.Value is not an integer');
  if (!amount.currency) refuse('Amount.Currency is nil');
  if (amount.currency.symbol === '') refuse('Amount.Currency.Symbol is empty');
  if (amount.currency.decimals < 0) refuse('Amount.Currency.Decimals must be >= 0');
}

function checkOperation(operation: OperationRequest | undefined, index: number): void {
  if (!operation) refuse('Operation is nil');
  const identifier = operation.operation_identifier;
  within(
    `operation identifier ${printStruct(operationIdentifierSchema, identifier)} is invalid in operation ${index}`,
    () => {
      if (!identifier) refuse('Operation.OperationIdentifier.Index is invalid');
      if (identifier.index !== BigInt(index)) {
        refuse(
          `expected identifier index ${index} but got ${identifier.index}: Operation.OperationIdentifier.Index is out of order`,
        );
      }
      if (identifier.network_index !== undefined && identifier.network_index < 0n) {
        refuse('Operation.OperationIdentifier.NetworkIndex is invalid');
      }
    },
  );
  within(`operation type ${goJson(operation.type)} is invalid in operation ${index}`, () => {
    if (!SUPPORTED_OPERATION_TYPES.includes(operation.type)) {
      refuse(`operation type ${operation.type} is invalid: Operation.Type is invalid`);
    }
  });
  const status = operation.status === undefined ? 'null' : goJson(operation.status);
  within(`operation status ${status} is invalid in operation ${index}`, () => {
    if (operation.status !== undefined && operation.status !== '') {
      refuse('Operation.Status must be empty for construction');
    }
  });
  const amount = operation.amount;
  if (!amount) return;
  within(
    `operation account identifier ${printStruct(accountIdentifierSchema, operation.account)} is invalid in operation ${index}`,
    () => checkAccount(operation.account),
  );
  within(`operation amount ${printStruct(amountSchema, amount)} is invalid in operation ${index}`, () =>
    checkAmount(amount),
  );
  const change = operation.coin_change;
  if (!change) return;
  within(
    `operation coin change ${printStruct(operationSchema.shape.coin_change, change)} is invalid in operation ${index}`,
    () => {
      const coin = change.coin_identifier;
      within(`coin identifier ${coin ? goJson({ identifier: coin.identifier }) : 'null'} is invalid`, () => {
        if (!coin) refuse('coin identifier cannot be nil');
        if (coin.identifier === '') refuse('coin identifier cannot be empty');
      });
      within(`coin action ${goJson(change.coin_action)} is invalid`, () => {
        if (change.coin_action !== 'coin_created' && change.coin_action !== 'coin_spent') {
          refuse(`failed to validate coin action ${goJson(change.coin_action)}: not a valid coin action`);
        }
      });
    },
  );
}

/** `Operations(operations, construction=true)`, as the preprocess and payloads checks wrap it. */
export function assertOperations(operations: readonly (OperationRequest | undefined)[] | undefined): void {
  within(`operations ${printStruct(operationsSchema, operations)} are invalid`, () => {
    if (!operations || operations.length === 0) refuse('operations cannot be empty for construction');
    operations.forEach((operation, index) => {
      within(`operation ${printStruct(operationSchema, operation)} is invalid`, () => checkOperation(operation, index));
      const own = (operation as OperationRequest).operation_identifier?.index as bigint;
      const seen: bigint[] = [];
      for (const related of (operation as OperationRequest).related_operations ?? []) {
        // The SDK reads each related index; a null entry stops it, answered here as an index out of order.
        const relatedIndex = related?.index ?? own;
        if (relatedIndex >= own) {
          refuse(
            `related operation index ${relatedIndex} >= operation index ${own}: related operation has index greater than operation`,
          );
        }
        if (seen.includes(relatedIndex)) {
          refuse(
            `related operation index ${relatedIndex} found for operation index ${own}: found duplicate related operation index`,
          );
        }
        seen.push(relatedIndex);
      }
    });
  });
}

function checkSigningPayload(payload: SigningPayloadRequest | undefined): void {
  if (!payload) refuse('signing payload cannot be nil');
  within(`account identifier ${printStruct(accountIdentifierSchema, payload.account_identifier)} is invalid`, () =>
    checkAccount(payload.account_identifier),
  );
  const bytes = goHexDecode(payload.hex_bytes) as Uint8Array;
  if (bytes.length === 0) refuse('signing payload bytes cannot be empty');
  if (bytes.every((byte) => byte === 0)) refuse('signing payload bytes cannot be 0');
  if (payload.signature_type === '') return;
  within(`signature type ${goJson(payload.signature_type)} is invalid`, () => {
    if (!SIGNATURE_TYPES.has(payload.signature_type)) refuse('not a supported SignatureType');
  });
}

/** `Signatures`, as the combine check wraps it. */
export function assertSignatures(signatures: readonly (SignatureRequest | undefined)[] | undefined): void {
  within(`signatures ${printSignatures(signatures)} are invalid`, () => {
    if (!signatures || signatures.length === 0) refuse('signatures cannot be empty');
    for (const signature of signatures) {
      // A null signature stops the SDK when it reads its payload; answered as a payload that is missing.
      const payload = signature?.signing_payload;
      within(`signing payload ${printSigningPayload(payload)} is invalid`, () => checkSigningPayload(payload));
      const s = signature as SignatureRequest;
      within(`public key ${printPublicKey(s.public_key)} is invalid`, () => checkPublicKey(s.public_key));
      within(`signature type ${goJson(s.signature_type)} is invalid`, () => {
        if (!SIGNATURE_TYPES.has(s.signature_type)) refuse('not a supported SignatureType');
      });
      const requested = (payload as SigningPayloadRequest).signature_type;
      if (requested !== '' && requested !== s.signature_type) {
        refuse('requested signature type does not match returned signature type');
      }
      const bytes = goHexDecode(s.hex_bytes) as Uint8Array;
      if (bytes.length === 0) refuse('signature bytes cannot be empty');
      if (bytes.every((byte) => byte === 0)) refuse('signature bytes cannot be 0');
    }
  });
}

/** A required string of a request: empty is refused with the SDK's words. */
export function assertNotEmpty(value: string, message: string): void {
  if (value.length === 0) refuse(message);
}
