import type { Schema } from './schema-check.ts';
import { resolveRef } from './schema-check.ts';

interface Operation {
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
}

/** `{param}` segments of a path template as a pattern of the request path. */
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

type Document = { paths: Record<string, unknown> };

/**
 * The path template of the document that `pathname` is an instance of; a literal segment wins over a parameter
 * (`/contracts/results` before `/contracts/{id}`).
 */
export function pathTemplate(document: Document, pathname: string): string | undefined {
  return Object.keys(document.paths)
    .filter((template) => templatePattern(template).test(pathname))
    .sort((a, b) => a.split('{').length - b.split('{').length)[0];
}

/**
 * The JSON schema the document gives for the answer to `method` on `template` with `status`: the operation's
 * response for the status or its `default`. Undefined when the document does not describe that answer.
 */
export function responseSchema(
  document: Document,
  method: string,
  template: string,
  status: number,
): { schema: Schema | undefined } | undefined {
  const operation = (document.paths[template] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
  let response = operation?.responses?.[String(status)] ?? operation?.responses?.default;
  if (response?.$ref !== undefined) response = resolveRef(document, response.$ref) as typeof response;
  if (!response) return undefined;
  return { schema: response.content?.['application/json']?.schema };
}
