import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { WebSocketServer } from 'ws';

export interface WsProxy {
  /** `host:port` to put in the Worker's DB_WS_PROXY; the Neon driver appends `/v2?address=…`. */
  readonly address: string;
  /** Database connections opened through the proxy so far (a request that queries opens one). */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * The WebSocket-to-TCP bridge that lets the Neon serverless driver (which speaks the Postgres wire
 * protocol over a WebSocket) reach a plain local Postgres. Each WebSocket is one Postgres connection.
 * Only the Postgres servers in `allowedTargets` (`host:port`) are reachable, so the proxy is no open relay.
 */
export async function startWsProxy(options: { port: number; allowedTargets: string[] }): Promise<WsProxy> {
  const allowed = new Set(options.allowedTargets);
  const server: Server = createServer((_req, res) => {
    res.writeHead(426).end('WebSocket only');
  });
  const wss = new WebSocketServer({ server });
  let connections = 0;
  wss.on('connection', (ws, req) => {
    connections += 1;
    const target = new URL(req.url ?? '/', 'http://proxy').searchParams.get('address') ?? '';
    if (!allowed.has(target)) {
      ws.close(1008, 'target not allowed');
      return;
    }
    const separator = target.lastIndexOf(':');
    const socket = connect({ host: target.slice(0, separator), port: Number(target.slice(separator + 1)) });
    socket.setNoDelay(true);
    // Frames that arrive before the TCP connection is up are written once it is: net.Socket buffers them.
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      if (Array.isArray(data)) for (const part of data) socket.write(part);
      else socket.write(data instanceof ArrayBuffer ? Buffer.from(data) : data);
    });
    socket.on('data', (chunk) => ws.send(chunk));
    ws.on('close', () => socket.end());
    ws.on('error', () => socket.destroy());
    socket.on('close', () => ws.close());
    socket.on('error', () => ws.terminate());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}
