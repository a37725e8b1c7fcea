import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the ports `freePort` draws from start; they end below the kernel's ephemeral range. */
const LOWEST = 20_000;

/**
 * The first port of the range the kernel gives outgoing connections (and `listen(0)`) their local port from:
 * /proc's `ip_local_port_range` on Linux, IANA's 49152 elsewhere.
 */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 0 ? first : 49_152;
  } catch {
    return 49_152;
  }
}

/**
 * A TCP port on 127.0.0.1 that is free now, drawn at random below the kernel's ephemeral range: a port the kernel
 * picked itself could be handed to an outgoing connection (a Postgres client's, say) before the caller binds it,
 * and the server meant for it would fail with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const end = ephemeralStart();
  if (end - LOWEST >= 1_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = LOWEST + Math.floor(Math.random() * (end - LOWEST));
      if (await isPortFree(port)) return port;
    }
  }
  return kernelPickedPort();
}

/** A free port with the next `count - 1` ports free too, for servers that take consecutive ports (the nodes). */
export async function freePortRun(count: number): Promise<number> {
  for (;;) {
    const first = await freePort();
    let free = true;
    for (let n = 1; n < count && free; n++) free = await isPortFree(first + n);
    if (free) return first;
  }
}

function kernelPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on `port` of 127.0.0.1. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
