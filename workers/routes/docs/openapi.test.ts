import { describe, expect, it } from 'vitest';
import { conformanceRequests } from '../../../test/harness/conformance-kit.ts';
import document from './openapi.json' with { type: 'json' };
import { pathTemplate, responseSchema } from './response-schema.ts';
import { checkSchema, type Schema } from './schema-check.ts';

const kitRequests = conformanceRequests();

describe('the OpenAPI document', () => {
  /**
   * The conformance kit's expected answers are edge-mirror's answers (`npm run conformance` holds them equal), so a
   * schema that rejects one, or an answer the document does not describe, is the document drifting from the code.
   */
  it("describes every answer of the conformance kit, status and body, with the schemas' fields only", () => {
    const problems: string[] = [];
    for (const request of kitRequests) {
      const { pathname } = new URL(request.url, 'http://kit');
      const template = pathTemplate(document, pathname);
      // a path the document has no template for is no route: the error handler's generic 404
      const described =
        template === undefined
          ? request.status === 404
            ? { schema: { $ref: '#/components/schemas/Error' } as Schema }
            : undefined
          : responseSchema(document, 'get', template, request.status);
      if (!described) {
        problems.push(`${request.file}: ${request.status} of GET ${template ?? pathname} is not described`);
        continue;
      }
      if (!described.schema) {
        problems.push(`${request.file}: ${request.status} of GET ${template} has no JSON schema`);
        continue;
      }
      for (const problem of checkSchema(document, described.schema, request.json)) {
        problems.push(`${request.file} ${request.url} ${request.status}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(kitRequests.length).toBeGreaterThan(1000);
  });

  it('rejects a body with a field or a type its schema does not have', () => {
    const block = { $ref: '#/components/schemas/Block' } as Schema;
    const valid = {
      count: 3,
      gas_used: null,
      hapi_version: '0.54.1',
      hash: `0x${'ab'.repeat(48)}`,
      logs_bloom: '0x',
      name: '1.rcd',
      number: 1,
      previous_hash: `0x${'00'.repeat(48)}`,
      size: 1024,
      timestamp: { from: '1.000000000', to: '2.000000000' },
    };
    expect(checkSchema(document, block, valid)).toEqual([]);
    expect(checkSchema(document, block, { ...valid, extra: 1 })).toEqual(['$: extra is not in the schema']);
    expect(checkSchema(document, block, { ...valid, number: '1' })).toEqual(['$.number: string, expected integer']);
  });
});
