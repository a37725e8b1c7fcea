import { describe, expect, it } from 'vitest';
import { combineRequestSchema, deriveRequestSchema } from '../construction/schemas.ts';
import { accountBalanceRequestSchema, blockRequestSchema, networkRequestSchema } from '../request/schemas.ts';
import { decodeGo } from './decode.ts';
import { scanJson } from './scanner.ts';

const decode = (schema: Parameters<typeof decodeGo>[0], text: string) =>
  decodeGo(schema, scanJson(new TextEncoder().encode(text)));

describe('request bodies decoded into the Mesh SDK structs', () => {
  it('fills absent values with their zero value and leaves absent pointers nil', () => {
    expect(decode(blockRequestSchema, '{"network_identifier":{"network":"demo"},"block_identifier":{}}')).toEqual({
      network_identifier: { blockchain: '', network: 'demo' },
      block_identifier: {},
    });
  });

  it('reads int64 fields exactly and matches field names ignoring case, as Go does', () => {
    expect(decode(blockRequestSchema, '{"Block_Identifier":{"INDEX":9007199254740993,"hash":null}}')).toEqual({
      block_identifier: { index: 9007199254740993n },
    });
  });

  it('ignores unknown fields and takes JSON null as a nil request', () => {
    expect(decode(networkRequestSchema, '{"other":[1,2],"metadata":{"b":1,"a":{"y":2,"x":1}}}')).toEqual({
      metadata: { a: { x: 1, y: 2 }, b: 1 },
    });
    expect(decode(networkRequestSchema, 'null')).toBeNull();
  });

  it.each([
    [
      '{"network_identifier":5}',
      'json: cannot unmarshal number into Go struct field NetworkRequest.network_identifier of type types.NetworkIdentifier',
    ],
    [
      '{"network_identifier":{"network":true}}',
      'json: cannot unmarshal bool into Go struct field NetworkIdentifier.network_identifier.network of type string',
    ],
    ['"x"', 'json: cannot unmarshal string into Go value of type types.NetworkRequest'],
    ['[]', 'json: cannot unmarshal array into Go value of type types.NetworkRequest'],
    [
      '{"metadata":[]}',
      'json: cannot unmarshal array into Go struct field NetworkRequest.metadata of type map[string]interface {}',
    ],
  ])("refuses %s into a NetworkRequest with Go's message", (body, message) => {
    expect(() => decode(networkRequestSchema, body)).toThrow(message);
  });

  it.each([
    [
      '{"block_identifier":{"index":"5"}}',
      'json: cannot unmarshal string into Go struct field PartialBlockIdentifier.block_identifier.index of type int64',
    ],
    [
      '{"block_identifier":{"index":1.5}}',
      'json: cannot unmarshal number 1.5 into Go struct field PartialBlockIdentifier.block_identifier.index of type int64',
    ],
    [
      '{"block_identifier":{"index":9223372036854775808}}',
      'json: cannot unmarshal number 9223372036854775808 into Go struct field PartialBlockIdentifier.block_identifier.index of type int64',
    ],
  ])("refuses %s into a BlockRequest with Go's message", (body, message) => {
    expect(() => decode(blockRequestSchema, body)).toThrow(message);
  });

  it('names the element type of a slice and the path without indexes, and reports the first error only', () => {
    expect(() => decode(accountBalanceRequestSchema, '{"currencies":["HBAR"],"block_identifier":1}')).toThrow(
      'json: cannot unmarshal string into Go struct field AccountBalanceRequest.currencies of type types.Currency',
    );
    expect(() => decode(accountBalanceRequestSchema, '{"currencies":[{"decimals":2147483648}]}')).toThrow(
      'json: cannot unmarshal number 2147483648 into Go struct field Currency.currencies.decimals of type int32',
    );
  });
});

describe('Mesh types that decode themselves (PublicKey, SigningPayload, Signature)', () => {
  it('decodes their hex and stops the whole request at hex that does not decode, with Go hex message', () => {
    expect(decode(deriveRequestSchema, '{"public_key":{"hex_bytes":"AB12","curve_type":"edwards25519"}}')).toEqual({
      public_key: { hex_bytes: 'AB12', curve_type: 'edwards25519' },
    });
    expect(() => decode(deriveRequestSchema, '{"public_key":{"hex_bytes":"abc"}}')).toThrow(
      'encoding/hex: odd length hex string',
    );
  });

  it('names a wrong type inside one from where the request stands, through the embedded type', () => {
    expect(() => decode(deriveRequestSchema, '{"public_key":{"curve_type":1}}')).toThrow(
      'json: cannot unmarshal number into Go struct field ConstructionDeriveRequest.public_key.Alias.curve_type of type types.CurveType',
    );
    expect(() => decode(combineRequestSchema, '{"signatures":[{"signing_payload":{"hex_bytes":[]}}]}')).toThrow(
      'json: cannot unmarshal array into Go struct field ConstructionCombineRequest.signatures.Alias.signing_payload.hex_bytes of type string',
    );
    expect(() => decode(deriveRequestSchema, '{"public_key":"ab"}')).toThrow(
      'json: cannot unmarshal string into Go struct field ConstructionDeriveRequest.public_key of type struct { Bytes string "json:\\"hex_bytes\\""; *types.Alias }',
    );
  });

  it('stops at the first such error even after a type error elsewhere was kept', () => {
    expect(() => decode(combineRequestSchema, '{"unsigned_transaction":1,"signatures":[{"hex_bytes":"zz"}]}')).toThrow(
      "encoding/hex: invalid byte: U+007A 'z'",
    );
  });
});
