/**
 * The OpenAPI document as standard tools read it: @seriousme/openapi-schema-validator checks it against the OpenAPI
 * 3.0 schema, and Ajv (what request and response validators such as express-openapi-validator build on) compiles
 * every schema it holds, OpenAPI's `nullable` included, and validates the conformance kit's answers (edge-mirror's
 * own, `npm run conformance` holds them equal) against the schema of their response.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { conformanceRequests } from '../../../test/harness/conformance-kit.ts';
import document from './openapi.json' with { type: 'json' };
import { answerValidator, DOCUMENT_ID, openApiAjv } from './openapi-ajv.ts';

const kitRequests = conformanceRequests();

describe('the OpenAPI document read by standard validators', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect([result.valid, validator.version]).toEqual([true, '3.0']);
  });

  it('has schemas Ajv compiles, each of them', () => {
    const ajv = openApiAjv();
    const failures: string[] = [];
    for (const name of Object.keys(document.components.schemas)) {
      try {
        ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
      } catch (error) {
        failures.push(`${name}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('validates every answer of the conformance kit against the schema of its response', () => {
    const validator = answerValidator();
    const problems: string[] = [];
    let validated = 0;
    for (const request of kitRequests) {
      const found = validator.check(request.url, request.status, request.json);
      if (found === undefined) continue;
      problems.push(...found.map((problem) => `${request.file} ${request.url}: ${problem}`));
      validated++;
    }
    expect(problems).toEqual([]);
    expect(validated).toBeGreaterThan(1000);
  });

  it('takes an NFT airdrop without an amount and a node without a gRPC proxy endpoint, as the API answers them', () => {
    const ajv = openApiAjv();
    const airdrop = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/TokenAirdrop`);
    const nft = {
      amount: null,
      receiver_id: '0.0.15',
      sender_id: '0.0.10',
      serial_number: 1,
      timestamp: { from: '1651560386.060890949', to: null },
      token_id: '0.0.99',
    };
    expect(airdrop?.(nft)).toBe(true);
    const endpoint = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/NetworkNode/properties/grpc_proxy_endpoint`);
    expect([endpoint?.(null), endpoint?.({ domain_name: '', ip_address_v4: '', port: 8080 })]).toEqual([true, true]);
    expect(endpoint?.('not an endpoint')).toBe(false);
  });
});
