/**
 * The path and the query (from its `?`; empty when there is none) of a request's absolute URL, by position: the
 * runtime has already parsed and normalised it, and parsing it again costs more than the rest of the log line.
 */
export function pathAndQuery(url: string): { path: string; query: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash < 0) return { path: '/', query: '' };
  const question = url.indexOf('?', slash);
  if (question < 0) return { path: url.slice(slash), query: '' };
  return { path: url.slice(slash, question), query: question === url.length - 1 ? '' : url.slice(question) };
}
