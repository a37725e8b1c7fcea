/**
 * One more port for the local mirror's Worker: an HTTP listener on 127.0.0.1 that passes every request, as it came,
 * to the Worker's port and the answer back, so a client set up for the Hiero local node's mirror ports (REST 5551,
 * contract calls 8545, Java routes 8084) reaches the same API.
 */
import http from 'node:http';

export interface PortAlias {
  readonly port: number;
  close(): Promise<void>;
}

export function startPortAlias(port: number, targetPort: number): Promise<PortAlias> {
  const server = http.createServer((request, response) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end('{"_status":{"messages":[{"message":"Service unavailable"}]}}');
    });
    request.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
