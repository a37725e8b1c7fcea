/**
 * The per-URL table `npm run bench:rest` ends with: each URL's rate, p50 and p99 in every pass that ran (cache
 * off, cache on, cache on with the rate limit), the cached pass's rate against the uncached one's, and, when the
 * uncached pass ran side by side with another server (`--vs`, the reference), that server's figures and the ratios,
 * in the layout of docs/performance.md's current table, headed by the date, the commit and the machine's load, with
 * a geometric mean of every column.
 */

/** One URL's figures in one pass, as ../shared/perf/bench.mjs writes them to its `--json` report. */
export interface UrlFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
}

export interface PassReport {
  readonly name: string;
  /** `vs`: the other server's figures for the URL, when the pass ran side by side with one. */
  readonly rows: readonly { readonly url: string; readonly base: UrlFigures; readonly vs?: UrlFigures }[];
}

export interface RunFacts {
  readonly date: string;
  readonly commit: string;
  readonly loadAverage: string;
}

/** How the uncached pass compares with the other server, over the URLs both answered. */
export interface Comparison {
  /** Geometric mean of the per-URL rate ratios (ours / theirs). */
  readonly rpsRatio: number;
  /** The URLs whose rate is below the other server's, with their ratio. */
  readonly below: readonly { readonly url: string; readonly ratio: number }[];
  /** URLs whose p99 is at most the other server's, out of `urls`. */
  readonly p99AtMost: number;
  readonly urls: number;
}

const rate = (rps: number) => Math.round(rps).toLocaleString('en-US');
const ms = (value: number) => String(value);
const times = (x: number) => `${x.toFixed(2)}×`;

/** Geometric mean of the positive values; 0 when there are none (a p50 that rounds to 0 ms has no logarithm). */
export function geometricMean(values: readonly number[]): number {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  return positive.length ? Math.exp(positive.reduce((sum, v) => sum + Math.log(v), 0) / positive.length) : 0;
}

export function compare(pass: PassReport): Comparison | undefined {
  const pairs = pass.rows.flatMap((row) =>
    row.vs && row.vs.rps > 0 ? [{ url: row.url, ours: row.base, theirs: row.vs }] : [],
  );
  if (pairs.length === 0) return undefined;
  return {
    rpsRatio: geometricMean(pairs.map((p) => p.ours.rps / p.theirs.rps)),
    below: pairs
      .filter((p) => p.ours.rps < p.theirs.rps)
      .map((p) => ({ url: p.url, ratio: p.ours.rps / p.theirs.rps })),
    p99AtMost: pairs.filter((p) => p.ours.p99 <= p.theirs.p99).length,
    urls: pairs.length,
  };
}

export function perUrlTable(passes: readonly PassReport[], facts: RunFacts): string {
  const urls = passes[0]?.rows.map((row) => row.url) ?? [];
  const byPass = passes.map((pass) => new Map(pass.rows.map((row) => [row.url, row])));
  const uncached = passes.findIndex((pass) => pass.name === 'rest');
  const cached = passes.findIndex((pass) => pass.name === 'rest-cached');
  const ratio = uncached >= 0 && cached >= 0;
  const side = uncached >= 0 && passes[uncached]?.rows.some((row) => row.vs);
  const header = [
    'url',
    ...passes.flatMap((pass) => [`${pass.name} rps`, 'p50 ms', 'p99 ms']),
    ...(ratio ? ['cached / uncached'] : []),
    ...(side ? ['reference rps', 'p50 ms', 'p99 ms', 'rps × reference', 'p50 × reference', 'p99 × reference'] : []),
  ];
  const lines = [
    `${facts.date}, commit ${facts.commit}, load average ${facts.loadAverage}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  for (const url of urls) {
    const rows = byPass.map((pass) => pass.get(url));
    const cells = rows.flatMap((row) => {
      const f = row?.base;
      return f ? [`${rate(f.rps)}${f.non2xx ? ` (${f.non2xx} non-2xx)` : ''}`, ms(f.p50), ms(f.p99)] : ['', '', ''];
    });
    if (ratio) {
      const off = rows[uncached]?.base.rps ?? 0;
      const on = rows[cached]?.base.rps ?? 0;
      cells.push(off > 0 ? `${(on / off).toFixed(1)}×` : '');
    }
    const ours = rows[uncached]?.base;
    const theirs = rows[uncached]?.vs;
    if (side) {
      cells.push(
        ...(ours && theirs && theirs.rps > 0
          ? [
              `${rate(theirs.rps)}${theirs.non2xx ? ` (${theirs.non2xx} non-2xx)` : ''}`,
              ms(theirs.p50),
              ms(theirs.p99),
              times(ours.rps / theirs.rps),
              theirs.p50 > 0 ? (ours.p50 / theirs.p50).toFixed(2) : '',
              theirs.p99 > 0 ? (ours.p99 / theirs.p99).toFixed(2) : '',
            ]
          : ['', '', '', '', '', '']),
      );
    }
    lines.push(`| \`${url}\` | ${cells.join(' | ')} |`);
  }
  lines.push(meanRow(passes, uncached, cached, ratio, side ?? false));
  return lines.join('\n');
}

/** The geometric mean of every column: figures of a pass over its URLs, ratios as the mean of the per-URL ratios. */
function meanRow(
  passes: readonly PassReport[],
  uncached: number,
  cached: number,
  ratio: boolean,
  side: boolean,
): string {
  const mean = (pass: PassReport | undefined, pick: (f: UrlFigures) => number) =>
    geometricMean(pass?.rows.map((row) => pick(row.base)) ?? []);
  const cells = passes.flatMap((pass) => [
    `**${rate(mean(pass, (f) => f.rps))}**`,
    mean(pass, (f) => f.p50).toFixed(1),
    mean(pass, (f) => f.p99).toFixed(0),
  ]);
  if (ratio) cells.push(`${(mean(passes[cached], (f) => f.rps) / mean(passes[uncached], (f) => f.rps)).toFixed(1)}×`);
  if (side) {
    const rows = passes[uncached]?.rows.filter((row) => row.vs && row.vs.rps > 0) ?? [];
    const of = (pick: (row: (typeof rows)[number]) => number) => geometricMean(rows.map(pick));
    cells.push(
      `**${rate(of((row) => row.vs?.rps ?? 0))}**`,
      of((row) => row.vs?.p50 ?? 0).toFixed(1),
      of((row) => row.vs?.p99 ?? 0).toFixed(0),
      `**${times(of((row) => (row.vs?.rps ? row.base.rps / row.vs.rps : 0)))}**`,
      of((row) => (row.vs?.p50 ? row.base.p50 / row.vs.p50 : 0)).toFixed(2),
      of((row) => (row.vs?.p99 ? row.base.p99 / row.vs.p99 : 0)).toFixed(2),
    );
  }
  return `| **geometric mean** | ${cells.join(' | ')} |`;
}
