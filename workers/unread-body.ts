/**
 * A request body the Worker answered without reading (a 429 before the route ran, a 401, a 404 for a POST to no
 * route, a 413 judged by its Content-Length) is read to its end before the response goes. workerd closes a keep-alive
 * connection whose request body is not all read when the response ends, without a `Connection: close` on that
 * response (it drops one the Worker sets), so the client's next request on the connection fails with a reset.
 * Reading the rest after the response (`waitUntil`) races the runtime and loses for bodies of a few hundred KiB. A
 * body past `DRAIN_LIMIT_BYTES`, or one whose rest has not arrived within `DRAIN_LIMIT_MS`, is cancelled instead: no
 * client of the API sends that much, a client waiting for its answer gets it, and the connection closes as before.
 */

/** Twice the largest body a route reads: a `contracts/call` carries up to 1 MiB of hex digits of call data. */
export const DRAIN_LIMIT_BYTES = 2 * 1024 * 1024;
/** A client that sent part of a body and then waits for the answer (a Content-Length it never fills) gets it. */
export const DRAIN_LIMIT_MS = 5_000;

async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const timer = setTimeout(() => reader.cancel().catch(() => {}), DRAIN_LIMIT_MS);
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > DRAIN_LIMIT_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // A body that ends early or is malformed: the runtime closes the connection, as it must.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `response` once the rest of `request`'s body, if the Worker left it unread, has been read. A request without a body
 * (every GET) gets its response as it is, without another promise.
 */
export function afterUnreadBody(
  request: Request,
  response: Response | Promise<Response>,
): Response | Promise<Response> {
  if (request.body === null) return response;
  return Promise.resolve(response).then(async (answer) => {
    if (request.body !== null && !request.bodyUsed) await drain(request.body);
    return answer;
  });
}
