/**
 * `requests` requests per URL before any is measured, as a server in service has had: the Worker's code is compiled
 * by then, and the proxy's Postgres connections have their catalog caches and prepared statements. A cold start
 * otherwise lands on whichever URL comes first (the first URL measured at half its warm rate).
 */
export async function warmUp(baseUrl: string, urls: readonly string[], concurrency: number, requests: number) {
  for (const url of urls) {
    let left = requests;
    const client = async () => {
      while (left-- > 0) {
        const response = await fetch(baseUrl + url);
        await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
  }
}
