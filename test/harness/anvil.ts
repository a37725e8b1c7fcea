import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** anvil (Foundry) as an independent EVM: Cancun unless asked, on 127.0.0.1 at a free port, its state changed over JSON-RPC. */
export interface Anvil {
  rpc<T>(method: string, params: readonly unknown[]): Promise<T>;
  /** eth_call's return data, or the revert data of a reverted call. */
  call(request: Record<string, string>): Promise<{ ok: boolean; data: string }>;
  /** Sends a transaction and waits for its receipt: anvil answers eth_sendTransaction before the block is mined. */
  transact(request: Record<string, string>): Promise<{ gasUsed: string; status: string }>;
  close(): Promise<void>;
}

/** anvil's first funded, unlocked account. */
export const ANVIL_SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

const binary = () =>
  join(dirname(createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil');

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match?.[1]) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`anvil exited with ${code}: ${output}`)));
    child.once('error', reject);
  });
}

export async function startAnvil(chainId = 296, hardfork = 'cancun'): Promise<Anvil> {
  const child = spawn(
    binary(),
    ['--host', '127.0.0.1', '--port', '0', '--hardfork', hardfork, '--chain-id', String(chainId)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = `http://127.0.0.1:${await listeningPort(child)}`;
  let id = 0;
  const send = async (method: string, params: readonly unknown[]) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return (await response.json()) as { result?: unknown; error?: { message: string; data?: string } };
  };
  const rpc = async <T>(method: string, params: readonly unknown[]): Promise<T> => {
    const reply = await send(method, params);
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result as T;
  };
  return {
    rpc,
    async call(request) {
      const reply = await send('eth_call', [request, 'latest']);
      if (!reply.error) return { ok: true, data: reply.result as string };
      return { ok: false, data: reply.error.data ?? '0x' };
    },
    async transact(request) {
      const hash = await rpc<string>('eth_sendTransaction', [request]);
      for (let attempt = 0; attempt < 200; attempt++) {
        const receipt = await rpc<{ gasUsed: string; status: string } | null>('eth_getTransactionReceipt', [hash]);
        if (receipt) return receipt;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`anvil mined no receipt for ${hash} in 5 s`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
