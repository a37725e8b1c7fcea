/**
 * The Mesh request objects of the Construction API as the reference's Go SDK declares them (coinbase/mesh-sdk-go
 * `types`), fields in the Go structs' order (see ../request/schemas.ts). PublicKey, SigningPayload and Signature
 * decode themselves (their own `UnmarshalJSON`): their `hex_bytes` is hex that must decode, kept here as the text
 * it came as.
 */
import { z } from 'zod';
import { goCustomStruct, goInt64, goMap, goSlice, goStruct } from '../go-json/decode.ts';
import { goNilShown } from '../go-json/print-struct.ts';
import { accountIdentifierSchema, currencySchema, networkIdentifierSchema } from '../request/schemas.ts';

const curveType = z.string().meta({ go: 'types.CurveType' });
const signatureType = z.string().meta({ go: 'types.SignatureType' });

/** How Go prints the anonymous struct each self-decoding type decodes into (`struct { …; *types.Alias }`). */
const hexStruct = (fields: string) => `struct { ${fields}Bytes string "json:\\"hex_bytes\\""; *types.Alias }`;

export const publicKeySchema = goCustomStruct(
  'PublicKey',
  { type: hexStruct(''), outer: ['hex_bytes'], hex: ['hex_bytes'] },
  { hex_bytes: z.string(), curve_type: curveType },
);

export const signingPayloadSchema = goCustomStruct(
  'SigningPayload',
  {
    type: hexStruct('Address string "json:\\"address,omitempty\\""; '),
    outer: ['address', 'hex_bytes'],
    hex: ['hex_bytes'],
  },
  {
    address: z.string(),
    account_identifier: accountIdentifierSchema.optional(),
    hex_bytes: z.string(),
    signature_type: signatureType,
  },
);

export const signatureSchema = goCustomStruct(
  'Signature',
  { type: hexStruct(''), outer: ['hex_bytes'], hex: ['hex_bytes'] },
  {
    signing_payload: signingPayloadSchema.optional(),
    public_key: publicKeySchema.optional(),
    signature_type: signatureType,
    hex_bytes: z.string(),
  },
);

export const operationIdentifierSchema = goStruct('OperationIdentifier', {
  index: goInt64,
  network_index: goInt64.optional(),
});

export const amountSchema = goStruct('Amount', {
  value: z.string(),
  currency: currencySchema.optional().meta(goNilShown),
  metadata: goMap.optional(),
});

const coinChangeSchema = goStruct('CoinChange', {
  coin_identifier: goStruct('CoinIdentifier', { identifier: z.string() }).optional().meta(goNilShown),
  coin_action: z.string().meta({ go: 'types.CoinAction' }),
});

export const operationSchema = goStruct('Operation', {
  operation_identifier: operationIdentifierSchema.optional().meta(goNilShown),
  related_operations: goSlice('[]*types.OperationIdentifier', operationIdentifierSchema.optional()).optional(),
  type: z.string(),
  status: z.string().optional(),
  account: accountIdentifierSchema.optional(),
  amount: amountSchema.optional(),
  coin_change: coinChangeSchema.optional(),
  metadata: goMap.optional(),
});

export const operationsSchema = goSlice('[]*types.Operation', operationSchema.optional());
const operations = operationsSchema.optional();
const publicKeys = goSlice('[]*types.PublicKey', publicKeySchema.optional()).optional();

export const deriveRequestSchema = goStruct('ConstructionDeriveRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  public_key: publicKeySchema.optional(),
  metadata: goMap.optional(),
});

export const preprocessRequestSchema = goStruct('ConstructionPreprocessRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  operations,
  metadata: goMap.optional(),
});

export const preprocessOperationsRequestSchema = goStruct('ConstructionPreprocessOperationsRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  from_address: z.string().optional(),
  construct_op: z.string(),
  options: goMap.optional(),
});

export const metadataRequestSchema = goStruct('ConstructionMetadataRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  options: goMap.optional(),
  public_keys: publicKeys,
});

export const payloadsRequestSchema = goStruct('ConstructionPayloadsRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  operations,
  metadata: goMap.optional(),
  public_keys: publicKeys,
});

export const parseRequestSchema = goStruct('ConstructionParseRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  signed: z.boolean(),
  transaction: z.string(),
});

export const combineRequestSchema = goStruct('ConstructionCombineRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  unsigned_transaction: z.string(),
  signatures: goSlice('[]*types.Signature', signatureSchema.optional()).optional(),
});

export const hashRequestSchema = goStruct('ConstructionHashRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  signed_transaction: z.string(),
});

export const submitRequestSchema = goStruct('ConstructionSubmitRequest', {
  network_identifier: networkIdentifierSchema.optional(),
  signed_transaction: z.string(),
});

export type PublicKeyRequest = z.output<typeof publicKeySchema>;
export type SigningPayloadRequest = z.output<typeof signingPayloadSchema>;
export type SignatureRequest = z.output<typeof signatureSchema>;
export type OperationRequest = z.output<typeof operationSchema>;
export type OperationIdentifierRequest = z.output<typeof operationIdentifierSchema>;
export type AmountRequest = z.output<typeof amountSchema>;
