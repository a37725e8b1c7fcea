/**
 * A crawl of the API as a client explores it: from the list routes it follows every `links.next` and every id an
 * answer names to the detail and sub-routes (crawl-links.ts), a few requests at a time, and checks each answer
 * against the served OpenAPI document: no 5xx, a status and body the document describes, and every amount, balance
 * and timestamp present (not null) wherever an answer has one.
 */
import document from '../../workers/routes/docs/openapi.json' with { type: 'json' };
import { pathTemplate, responseSchema } from '../../workers/routes/docs/response-schema.ts';
import { checkSchema, type Schema } from '../../workers/routes/docs/schema-check.ts';
import { type FollowUp, followUps } from './crawl-links.ts';

export type { FollowUp };

export interface CrawlOptions {
  readonly baseUrl: string;
  /** Requests in flight at once. */
  readonly parallel: number;
  /** The most requests made for one path template (pages of one list count too)… */
  readonly perTemplate: number;
  /** …or for these templates, this many. */
  readonly templateLimits?: Readonly<Record<string, number>>;
}

export interface CrawlReport {
  requests: number;
  readonly serverErrors: string[];
  readonly violations: string[];
  /** Answers to a URL built from an id another answer named that are not 200. */
  readonly unexpected: string[];
  /** Requests per path template. */
  readonly templates: Map<string, number>;
}

/** Fields a client reads as numbers or instants: present wherever an answer has the key. */
const REQUIRED_VALUES = new Set(['amount', 'balance', 'timestamp', 'consensus_timestamp']);

/** Where `value` has one of REQUIRED_VALUES set to null. */
function nullValues(value: unknown, at: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) nullValues(item, `${at}[${index}]`, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, field] of Object.entries(value)) {
    if (field === null && REQUIRED_VALUES.has(key)) out.push(`${at}.${key} is null`);
    else nullValues(field, `${at}.${key}`, out);
  }
}

export async function crawl(seeds: readonly FollowUp[], options: CrawlOptions): Promise<CrawlReport> {
  const report: CrawlReport = { requests: 0, serverErrors: [], violations: [], unexpected: [], templates: new Map() };
  const seen = new Set<string>();
  const queue: FollowUp[] = [];
  const enqueue = (next: FollowUp) => {
    if (seen.has(next.url)) return;
    const { pathname } = new URL(next.url, options.baseUrl);
    const template = pathTemplate(document, pathname) ?? pathname;
    const count = report.templates.get(template) ?? 0;
    if (count >= (options.templateLimits?.[template] ?? options.perTemplate)) return;
    report.templates.set(template, count + 1);
    seen.add(next.url);
    queue.push(next);
  };
  for (const seed of seeds) enqueue(seed);

  const visit = async ({ url, mustExist, headers }: FollowUp) => {
    const response = await fetch(options.baseUrl + url, { headers: headers ?? {} });
    const text = await response.text();
    report.requests++;
    if (response.status >= 500) {
      report.serverErrors.push(`${url}: ${response.status} ${text.slice(0, 200)}`);
      return;
    }
    if (mustExist && response.status !== 200)
      report.unexpected.push(`${url}: ${response.status} ${text.slice(0, 200)}`);
    const { pathname } = new URL(url, options.baseUrl);
    const template = pathTemplate(document, pathname);
    const described = template === undefined ? undefined : responseSchema(document, 'get', template, response.status);
    if (!described?.schema) {
      report.violations.push(`${url}: status ${response.status} of ${template ?? pathname} is not described`);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      report.violations.push(`${url}: the body is not JSON`);
      return;
    }
    for (const problem of checkSchema(document, described.schema as Schema, body)) {
      report.violations.push(`${url}: ${problem}`);
    }
    const missing: string[] = [];
    nullValues(body, '$', missing);
    // A page of balances without any has no snapshot time to give: the reference answers null there too.
    const noBalances = (body as { balances?: unknown[] }).balances?.length === 0;
    for (const problem of missing) {
      if (!(noBalances && problem === '$.timestamp is null')) report.violations.push(`${url}: ${problem}`);
    }
    if (response.status === 200 && template) for (const next of followUps(template, url, body)) enqueue(next);
  };

  // Each runner takes the next URL; with none queued it waits while another visit may still queue more.
  let active = 0;
  const runner = async () => {
    for (;;) {
      const next = queue.shift();
      if (next) {
        active++;
        await visit(next).finally(() => active--);
      } else if (active === 0) {
        return;
      } else {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, runner));
  return report;
}
