/**
 * The Construction API's steps up to an unsigned transaction (rosetta/app/services/construction_service.go):
 * `/construction/derive`, `/preprocess`, `/metadata`, `/payloads`, and `/preprocess_operations`, which the
 * reference's SDK routes and its service answers `Not implemented`.
 */
import { Hono } from 'hono';
import { accountIdByAlias } from '../../../db/queries/rosetta-account-by-alias.ts';
import type { AppEnv } from '../../context.ts';
import { hex } from '../../format/values.ts';
import { aliasOf, parseAccountAddress } from '../domain/account-id.ts';
import { hbarAmount } from '../domain/currency.ts';
import { entityIdText, entityOfEncoded } from '../domain/entity-id.ts';
import { RosettaError } from '../errors.ts';
import { goHexDecode } from '../go-json/hex.ts';
import { assertNetwork } from '../request/asserter.ts';
import { readRequest } from '../request/read.ts';
import { meshResponse } from '../respond.ts';
import { rosettaSettings } from '../settings.ts';
import { accountText, sdkAccountText } from './accounts.ts';
import { assertOperations, assertPublicKey, assertRequest } from './asserter.ts';
import { construct, maxFeeOf, preprocess } from './constructors.ts';
import { bodyBytes, signedTransactionBytes, transactionListBytes } from './hapi/transaction-build.ts';
import { publicKeyFromBytes } from './keys.ts';
import { networkNodes, randomNodeAccount } from './network-nodes.ts';
import { readOperations } from './operations.ts';
import {
  generatedValidStart,
  MAX_VALID_DURATION_SECONDS,
  memoOf,
  nodeAccountOf,
  payerOf,
  validityOf,
} from './payload-metadata.ts';
import {
  deriveRequestSchema,
  metadataRequestSchema,
  payloadsRequestSchema,
  preprocessOperationsRequestSchema,
  preprocessRequestSchema,
} from './schemas.ts';

/** Construction answers depend on the request alone or on the clock: none is kept at the edge. */
const NOT_CACHED = 0;

const NANOS_PER_SECOND = 1_000_000_000n;

/** A Go map of options or metadata, written back with its keys sorted (as Go writes maps). */
const sortedMap = (map: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((key) => [key, map[key]]),
  );

export const buildRoutes = new Hono<AppEnv>()
  .post('/derive', async (c) => {
    const request = await readRequest(c, deriveRequestSchema);
    assertNetwork(request.network_identifier, rosettaSettings(c.get('config')));
    assertRequest(() => assertPublicKey(request.public_key));
    const requested = request.public_key as NonNullable<typeof request.public_key>;
    // Only ED25519 keys make accounts here (a secp256k1 key, or bytes of another curve than named, are 106).
    const key = publicKeyFromBytes(goHexDecode(requested.hex_bytes) as Uint8Array);
    if (requested.curve_type !== 'edwards25519' || !key || key.curve !== 'edwards25519') {
      throw RosettaError.of('InvalidPublicKey');
    }
    const address = `0x${hex(aliasOf({ curve: key.curve, publicKey: key.raw }))}`;
    return meshResponse({ address, account_identifier: { address } }, NOT_CACHED);
  })
  .post('/preprocess', async (c) => {
    const request = await readRequest(c, preprocessRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertRequest(() => assertOperations(request.operations));
    const operations = readOperations(request.operations ?? [], settings);
    const signers = preprocess(operations);
    const options: Record<string, unknown> = { ...(request.metadata ?? {}) };
    options.operation_type = operations[0]?.type;
    const payer = signers[0];
    if (payer?.kind === 'alias') options.account_aliases = accountText(payer);
    return meshResponse(
      {
        options: sortedMap(options),
        required_public_keys: signers.map((signer) => ({ address: accountText(signer) })),
      },
      NOT_CACHED,
    );
  })
  .post('/metadata', async (c) => {
    const request = await readRequest(c, metadataRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertRequest(() => {
      for (const key of request.public_keys ?? []) assertPublicKey(key);
    });
    const options = request.options;
    const operationType = options?.operation_type;
    if (operationType === undefined || operationType === null || typeof operationType !== 'string') {
      throw RosettaError.of('InvalidOptions');
    }
    const maxFee = maxFeeOf(operationType);
    const metadata: Record<string, unknown> = { ...options };
    delete metadata.account_aliases;
    const aliases = options?.account_aliases;
    if (aliases !== undefined && aliases !== null) {
      if (!settings.online) throw RosettaError.of('EndpointNotSupportedInOfflineMode');
      if (typeof aliases !== 'string') throw RosettaError.of('InvalidOptions');
      const pairs: string[] = [];
      for (const alias of aliases.split(',')) {
        const account = parseAccountAddress(alias, settings.shard, settings.realm);
        if (!account) throw RosettaError.of('InvalidAccount');
        let id = account.kind === 'id' ? entityIdText(account.id) : undefined;
        if (account.kind === 'alias') {
          const found = await accountIdByAlias(c.get('db'), account.alias);
          if (found === undefined) throw RosettaError.of('AccountNotFound');
          id = entityIdText(entityOfEncoded(found));
        }
        pairs.push(`${alias}:${id}`);
      }
      metadata.account_map = pairs.join(',');
    }
    metadata.node_account_id = sdkAccountText(randomNodeAccount(await networkNodes(c)));
    // A string, so that clients do not read it as a float.
    metadata.valid_until_nanos = `${c.get('now')() + MAX_VALID_DURATION_SECONDS * NANOS_PER_SECOND}`;
    return meshResponse({ metadata: sortedMap(metadata), suggested_fee: [hbarAmount(maxFee)] }, NOT_CACHED);
  })
  .post('/payloads', async (c) => {
    const request = await readRequest(c, payloadsRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertRequest(() => {
      assertOperations(request.operations);
      for (const key of request.public_keys ?? []) assertPublicKey(key);
    });
    const nodeAccount = nodeAccountOf(request.metadata);
    const validity = validityOf(request.metadata);
    const operations = readOperations(request.operations ?? [], settings);
    const { data, signers } = construct(operations);
    const payer = payerOf(signers[0] as (typeof signers)[number], request.metadata);
    const memo = memoOf(request.metadata);
    const body = bodyBytes({
      payer,
      validStartNanos: validity.startNanos === 0n ? generatedValidStart(c.get('now')()) : validity.startNanos,
      nodeAccount,
      fee: maxFeeOf(operations[0]?.type as string),
      validDurationSeconds: validity.durationSeconds,
      memo,
      data,
    });
    const signed = signedTransactionBytes({
      bodyBytes: body,
      pairs: [],
      useSerializedTxMessageHashAlgorithm: false,
      unknown: [],
    });
    const payloads = signers.map((signer) => {
      const address = accountText(signer);
      return { address, hex_bytes: hex(body), account_identifier: { address }, signature_type: 'ed25519' };
    });
    return meshResponse({ unsigned_transaction: `0x${hex(transactionListBytes([signed]))}`, payloads }, NOT_CACHED);
  })
  .post('/preprocess_operations', async (c) => {
    const request = await readRequest(c, preprocessOperationsRequestSchema);
    assertNetwork(request.network_identifier, rosettaSettings(c.get('config')));
    if (request.construct_op === '') {
      throw RosettaError.request('ConstructionPreprocessOperationsRequest construct_op cannot be empty');
    }
    throw RosettaError.of('NotImplemented');
  });
