import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, freePortRun, isPortFree } from './free-port.ts';

describe('freePort', () => {
  it('gives a free port below the range outgoing connections take their local ports from', async () => {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(first);
      expect(await isPortFree(port)).toBe(true);
    }
  });

  it('a port a server listens on is not free', async () => {
    const server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      expect(await isPortFree(port)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('freePortRun', () => {
  it('gives a free port whose next ports are free too', async () => {
    for (let i = 0; i < 5; i++) {
      const first = await freePortRun(4);
      for (let n = 0; n < 4; n++) expect(await isPortFree(first + n)).toBe(true);
    }
  });
});
