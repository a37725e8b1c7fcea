/**
 * The GET routes of the reference's OpenAPI document (`test/data/reference/openapi.yml`) with the names of their
 * path and query parameters, read by a scan of its fixed layout (two-space paths, `$ref`s to
 * `components.parameters` entries with `name` and `in`) rather than a YAML parser the project does not need.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sharedDir } from '../../test/harness/shared-dir.ts';

export interface GetRoute {
  /** `/api/v1/accounts/{idOrAliasOrEvmAddress}` */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
}

export function readGetRoutes(file = path.join(sharedDir(), 'reference/openapi.yml')): GetRoute[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const declared = new Map<string, { name: string; in: string }>();
  const componentsAt = lines.indexOf('  parameters:', lines.indexOf('components:'));
  let current: { id: string; name?: string; in?: string } | undefined;
  for (const line of lines.slice(componentsAt + 1)) {
    if (/^ {0,3}\S/.test(line)) break;
    const id = /^ {4}(\w+):\s*$/.exec(line)?.[1];
    if (id) current = { id };
    const field = /^ {6}(name|in):\s*"?([^"\s]+)"?/.exec(line);
    if (current && field) current[field[1] as 'name' | 'in'] = field[2] as string;
    if (current?.name && current.in) declared.set(current.id, { name: current.name, in: current.in });
  }
  const routes: GetRoute[] = [];
  let route: { path: string; refs: string[] } | undefined;
  let inGet = false;
  const finish = () => {
    if (!route) return;
    const params = route.refs.map((ref) => declared.get(ref)).filter((p) => p !== undefined);
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    const queryParams = [...new Set(params.filter((p) => p.in === 'query').map((p) => p.name))];
    routes.push({ path: route.path, pathParams, queryParams });
    route = undefined;
  };
  for (const line of lines.slice(0, lines.indexOf('components:'))) {
    const pathLine = /^ {2}(\/api\/\S+):\s*$/.exec(line);
    if (pathLine) {
      finish();
      inGet = false;
      route = { path: pathLine[1] as string, refs: [] };
      continue;
    }
    if (/^ {4}\w+:\s*$/.test(line)) inGet = line.trim() === 'get:';
    const ref = /\$ref: "#\/components\/parameters\/(\w+)"/.exec(line);
    if (route && inGet && ref) route.refs.push(ref[1] as string);
  }
  finish();
  // A path with only a POST (contracts/call) has no GET to fuzz.
  return routes.filter((r) => hasGet(lines, r.path));
}

function hasGet(lines: readonly string[], routePath: string): boolean {
  const at = lines.indexOf(`  ${routePath}:`);
  for (const line of lines.slice(at + 1)) {
    if (/^ {0,3}\S/.test(line)) return false;
    if (line === '    get:') return true;
  }
  return false;
}
