/**
 * The Mesh (Rosetta) OpenAPI document (test/data/mesh/api.json, Mesh 1.5.1) as a checker of the Rosetta API's
 * answers, and a client for the Worker's `/rosetta` endpoints that checks every answer it gets: a 200 against the
 * endpoint's response schema, any other status against the document's `Error`. The schema language is the one
 * test/data/reference's checker reads (workers/routes/docs/schema-check.ts); an object may hold only the fields its
 * schema lists, so an answer cannot carry what Mesh does not describe.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { responseSchema } from '../../workers/routes/docs/response-schema.ts';
import { checkSchema, type Schema } from '../../workers/routes/docs/schema-check.ts';
import { REPO_ROOT } from './shared-dir.ts';

const document = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/data/mesh/api.json'), 'utf8')) as {
  info: { version: string };
  paths: Record<string, unknown>;
};

export const MESH_VERSION = document.info.version;

/** The Mesh endpoints the document describes (`/block`, `/account/balance`, …). */
export const MESH_PATHS: readonly string[] = Object.keys(document.paths);

/**
 * The answers of endpoints the reference serves that Mesh 1.5 does not describe, in the document's components:
 * `/account/all-balances` (Mesh 1.7's AllAccountBalancesResponse, which the reference's Go SDK has).
 */
const LATER_ENDPOINTS: Readonly<Record<string, Schema>> = {
  '/account/all-balances': {
    type: 'object',
    required: ['block_identifier', 'account_balances'],
    properties: {
      block_identifier: { $ref: '#/components/schemas/BlockIdentifier' },
      account_balances: {
        type: 'array',
        items: {
          type: 'object',
          required: ['balances'],
          properties: {
            sub_account_identifier: { $ref: '#/components/schemas/SubAccountIdentifier' },
            balances: { type: 'array', items: { $ref: '#/components/schemas/Amount' } },
            balance_type: { type: 'string' },
            metadata: { type: 'object' },
          },
        },
      },
    },
  },
};

/**
 * Where the answer `body` with `status` to POST `endpoint` breaks the document: one line per problem, empty when it
 * is valid.
 */
export function meshProblems(endpoint: string, status: number, body: unknown): string[] {
  if (status !== 200) return checkSchema(document, { $ref: '#/components/schemas/Error' }, body);
  const described = document.paths[endpoint] ? responseSchema(document, 'post', endpoint, 200) : undefined;
  const schema = described?.schema ?? LATER_ENDPOINTS[endpoint];
  if (!schema) return [`${endpoint}: no 200 answer in the Mesh document`];
  return checkSchema(document, schema, body);
}

/** The network the Rosetta API serves by default: the identifier every request names. */
export const MESH_NETWORK = { blockchain: 'Hedera', network: 'demo' };

/** HBAR as the Rosetta API names the currency of its amounts. */
export const HBAR_CURRENCY = { symbol: 'HBAR', decimals: 8, metadata: { issuer: 'Hedera' } };

/** An operation of a Construction API request: `amount` tinybars to (positive) or from (negative) `address`. */
export const hbarOperation = (index: number, type: string, address: string, amount: bigint, metadata?: object) => ({
  operation_identifier: { index },
  type,
  account: { address },
  amount: { value: amount.toString(), currency: HBAR_CURRENCY },
  ...(metadata ? { metadata } : {}),
});

export interface MeshAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of every Mesh shape; the document checks them.
  body: any;
  text: string;
}

/**
 * POSTs `body` (an object, sent as JSON, or raw text) to `<baseUrl>/rosetta<endpoint>` and fails when the answer
 * is not what the Mesh document allows for it.
 */
export async function postMesh(
  baseUrl: string,
  endpoint: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<MeshAnswer> {
  const res = await fetch(`${baseUrl}/rosetta${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body, (_, v) => (typeof v === 'bigint' ? Number(v) : v)),
  });
  const text = await res.text();
  const answer: MeshAnswer = { status: res.status, headers: res.headers, body: undefined, text };
  if (res.status === 304) return answer;
  answer.body = JSON.parse(text);
  const problems = meshProblems(endpoint, res.status, answer.body);
  if (problems.length > 0) {
    throw new Error(`POST ${endpoint} answered what the Mesh document does not allow:\n${problems.join('\n')}`);
  }
  return answer;
}
