/**
 * The part of OpenAPI 3.0's schema language the API's document uses, as a checker of JSON values: `$ref` (to
 * `#/components/...`), `type`, `nullable`, `enum`, `properties`, `required`, `additionalProperties`, `items`,
 * `allOf`, `anyOf`, `oneOf`, `pattern`, `minLength`/`maxLength`, `minimum`/`maximum`, `minItems`/`maxItems`.
 * `format` and `example` describe and do not constrain. An object schema that lists properties is taken as closed
 * unless it says otherwise (`additionalProperties`): a field the document does not describe is a problem, so the
 * document cannot fall behind the answers. Used by the tests that hold the document to the responses; the Worker
 * itself never validates its answers.
 */

export interface Schema {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** Resolves a local reference (`#/components/schemas/Block`) in `document`. */
export function resolveRef(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  let node: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    if (node === undefined) throw new Error(`unresolved reference: ${ref}`);
  }
  return node;
}

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const fits = (type: string, actual: string): boolean => type === actual || (type === 'number' && actual === 'integer');

/** Where `value` breaks `schema`: one line per problem, with the JSON path (`$.blocks[0].number`); empty when none. */
export function checkSchema(document: unknown, schema: Schema, value: unknown, at = '$', part = false): string[] {
  if (schema.$ref !== undefined) {
    return checkSchema(document, resolveRef(document, schema.$ref) as Schema, value, at, part);
  }
  // nullable on a composition (`allOf: [$ref], nullable: true`) admits null whatever its parts say
  if (value === null && schema.nullable === true) return [];
  const problems: string[] = [];
  // the parts of an allOf describe one object together: which fields it may have is decided here, not by each part
  for (const piece of schema.allOf ?? []) problems.push(...checkSchema(document, piece, value, at, true));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const matching = alternatives.filter((part) => checkSchema(document, part, value, at).length === 0).length;
    const wanted = schema.oneOf ? matching === 1 : matching >= 1;
    if (!wanted) problems.push(`${at}: matches ${matching} of its ${schema.oneOf ? 'oneOf' : 'anyOf'} schemas`);
  }
  const actual = typeOf(value);
  if (actual === 'null') {
    // a schema with no type of its own (an allOf wrapper) leaves null to its parts
    if (schema.nullable !== true && schema.type !== undefined) problems.push(`${at}: null is not allowed`);
    return problems;
  }
  if (schema.type !== undefined && !fits(schema.type, actual)) {
    problems.push(`${at}: ${actual}, expected ${schema.type}`);
    return problems;
  }
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not in its enum`);
  if (typeof value === 'string') problems.push(...checkString(schema, value, at));
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${at}: too few items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${at}: too many items`);
    if (schema.items) {
      const items = schema.items;
      value.forEach((item, i) => {
        problems.push(...checkSchema(document, items, item, `${at}[${i}]`));
      });
    }
  } else if (actual === 'object') {
    problems.push(...checkObject(document, schema, value as Record<string, unknown>, at));
    const names = part ? undefined : propertyNames(document, schema);
    for (const key of Object.keys(value as object)) {
      if (names && !names.has(key)) problems.push(`${at}: ${key} is not in the schema`);
    }
  }
  return problems;
}

function checkString(schema: Schema, value: string, at: string): string[] {
  const problems: string[] = [];
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
    problems.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  }
  if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${at}: shorter than allowed`);
  if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${at}: longer than allowed`);
  return problems;
}

function checkObject(document: unknown, schema: Schema, value: Record<string, unknown>, at: string): string[] {
  const problems: string[] = [];
  for (const key of schema.required ?? []) if (!(key in value)) problems.push(`${at}: ${key} is missing`);
  for (const [key, child] of Object.entries(value)) {
    const property = schema.properties?.[key];
    if (property) {
      problems.push(...checkSchema(document, property, child, `${at}.${key}`));
    } else if (typeof schema.additionalProperties === 'object') {
      problems.push(...checkSchema(document, schema.additionalProperties, child, `${at}.${key}`));
    }
  }
  return problems;
}

/**
 * The fields an object of `schema` may have: its properties and those of its allOf parts; undefined when it is
 * open (no properties listed anywhere, or additionalProperties allowed).
 */
function propertyNames(document: unknown, schema: Schema): Set<string> | undefined {
  const resolved = schema.$ref !== undefined ? (resolveRef(document, schema.$ref) as Schema) : schema;
  if (resolved.additionalProperties !== undefined && resolved.additionalProperties !== false) return undefined;
  const names = new Set(Object.keys(resolved.properties ?? {}));
  let listed = resolved.properties !== undefined;
  for (const piece of resolved.allOf ?? []) {
    const inner = propertyNames(document, piece);
    if (inner === undefined) {
      const pieceSchema = piece.$ref !== undefined ? (resolveRef(document, piece.$ref) as Schema) : piece;
      if (pieceSchema.properties !== undefined || pieceSchema.additionalProperties !== undefined) return undefined;
      continue;
    }
    listed = true;
    for (const name of inner) names.add(name);
  }
  return listed ? names : undefined;
}
