/**
 * The per-URL table `npm run bench:rest` ends with: each URL's rate, p50 and p99 in every pass that ran (cache
 * off, cache on, cache on with the rate limit), and the cached pass's rate against the uncached one's, in the
 * layout of docs/performance.md's current table, headed by the date, the commit and the machine's load.
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
  readonly rows: readonly { readonly url: string; readonly base: UrlFigures }[];
}

export interface RunFacts {
  readonly date: string;
  readonly commit: string;
  readonly loadAverage: string;
}

const rate = (rps: number) => Math.round(rps).toLocaleString('en-US');
const ms = (value: number) => String(value);

export function perUrlTable(passes: readonly PassReport[], facts: RunFacts): string {
  const urls = passes[0]?.rows.map((row) => row.url) ?? [];
  const byPass = passes.map((pass) => new Map(pass.rows.map((row) => [row.url, row.base])));
  const uncached = passes.findIndex((pass) => pass.name === 'rest');
  const cached = passes.findIndex((pass) => pass.name === 'rest-cached');
  const ratio = uncached >= 0 && cached >= 0;
  const header = [
    'url',
    ...passes.flatMap((pass) => [`${pass.name} rps`, 'p50 ms', 'p99 ms']),
    ...(ratio ? ['cached / uncached'] : []),
  ];
  const lines = [
    `${facts.date}, commit ${facts.commit}, load average ${facts.loadAverage}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  for (const url of urls) {
    const figures = byPass.map((pass) => pass.get(url));
    const cells = figures.flatMap((f) =>
      f ? [`${rate(f.rps)}${f.non2xx ? ` (${f.non2xx} non-2xx)` : ''}`, ms(f.p50), ms(f.p99)] : ['', '', ''],
    );
    if (ratio) {
      const off = figures[uncached]?.rps ?? 0;
      const on = figures[cached]?.rps ?? 0;
      cells.push(off > 0 ? `${(on / off).toFixed(1)}×` : '');
    }
    lines.push(`| \`${url}\` | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
