/**
 * The prefix of every cache key of the deployed Worker. It names the database the answers came from, so a mirror
 * started on another database (the local cache outlives the process) never serves the old one's answers.
 */
export function cacheKeyPrefix(env: { readonly DATABASE_ID?: string | undefined }): string {
  return env.DATABASE_ID ? `v1-${encodeURIComponent(env.DATABASE_ID)}` : 'v1';
}

/**
 * The cache key of a query: each name and value percent-decoded and re-encoded one canonical way (`%3a`, `%3A`
 * and `:` are one key), in the order sent. Order is kept because the answer depends on it: `links.next` repeats
 * the query in its order, and for a repeated parameter the reference reads the values in order.
 */
export function canonicalQuery(search: string): string {
  // Most queries are already spelled canonically (a cache hit's key is built on every request): those need no
  // decoding and re-encoding pair by pair.
  if (search === '' || CANONICAL.test(search)) return search;
  const pairs = (search.startsWith('?') ? search.slice(1) : search).split('&').filter((pair) => pair !== '');
  const canonical = pairs.map((pair) => {
    const at = pair.indexOf('=');
    const [name, value] = at < 0 ? [pair, undefined] : [pair.slice(0, at), pair.slice(at + 1)];
    const encode = (text: string) => encodeURIComponent(decode(text)).replace(/%3A/g, ':').replace(/%2C/g, ',');
    return value === undefined ? encode(name) : `${encode(name)}=${encode(value)}`;
  });
  return canonical.length > 0 ? `?${canonical.join('&')}` : '';
}

/**
 * Non-empty pairs of characters `encodeURIComponent` leaves alone, plus `:` and `,`, with at most one `=` each: a
 * query they make up is its own canonical spelling.
 */
const CANONICAL = /^\?[\w.!~*'():,-]+(?:=[\w.!~*'():,-]*)?(?:&[\w.!~*'():,-]+(?:=[\w.!~*'():,-]*)?)*$/;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
