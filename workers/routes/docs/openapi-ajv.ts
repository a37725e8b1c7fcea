/**
 * The OpenAPI document read by Ajv, what request and response validators such as express-openapi-validator build
 * on: for tests that validate an answer against the schema the document gives for it.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import document from './openapi.json' with { type: 'json' };
import { pathTemplate, responseSchema } from './response-schema.ts';

export const DOCUMENT_ID = 'https://edge-mirror.invalid/openapi.json';

/**
 * Ajv in strict mode (so `nullable` without `type` is refused, as OpenAPI 3.0.3 ignores it) with the Schema Object's
 * keywords that are not JSON Schema's, and its formats. Three of its strict checks are style rather than meaning and
 * the reference's own schemas fail them, so they are off: a `properties` in an `allOf` branch with no `type` beside it
 * (strictTypes), a `required` naming a property another branch defines (strictRequired), and a pattern with `\:`,
 * which ECMA-262 reads as `:` but Ajv's default `u` flag refuses (unicodeRegExp).
 */
export function openApiAjv(): Ajv {
  const ajv = new Ajv({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    unicodeRegExp: false,
    allErrors: true,
  });
  for (const keyword of ['example', 'externalDocs', 'xml', 'discriminator']) ajv.addKeyword(keyword);
  // the document's top level, which holds the schemas the `$ref`s point into
  for (const keyword of ['openapi', 'info', 'servers', 'paths', 'components', 'tags', 'security']) {
    ajv.addKeyword(keyword);
  }
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary']) ajv.addFormat(format, true);
  ajv.addSchema({ ...structuredClone(document), $id: DOCUMENT_ID });
  return ajv;
}

/** A schema of the document with its local `$ref`s pointed at the document Ajv holds. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${DOCUMENT_ID}${value}` : value,
  );
}

/**
 * Validates answers to GET requests against the schema the document gives for their path and status; `check`
 * answers the problems Ajv finds (none: valid), or undefined when the document describes no such answer.
 */
export function answerValidator(): {
  check(url: string, status: number, body: unknown): string[] | undefined;
} {
  const ajv = openApiAjv();
  const compiled = new Map<string, ValidateFunction>();
  return {
    check(url, status, body) {
      const template = pathTemplate(document, new URL(url, 'http://answer').pathname);
      const schema = template === undefined ? undefined : responseSchema(document, 'get', template, status);
      if (!schema?.schema) return undefined;
      const key = `${template} ${status}`;
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile({ $id: `${DOCUMENT_ID}/responses/${compiled.size}`, allOf: [rebase(schema.schema)] });
        compiled.set(key, validate);
      }
      return validate(body) ? [] : [ajv.errorsText(validate.errors)];
    },
  };
}
