import { describe, expect, it } from 'vitest';
import { redirectBytecode } from './redirect-bytecode.ts';

const hex = (value: Uint8Array) => Buffer.from(value).toString('hex');

describe('redirectBytecode', () => {
  const token = new Uint8Array(20);
  token[19] = 0x42;

  it('is the consensus node’s proxy with the system contract, the selector and the address filled in', () => {
    const code = hex(redirectBytecode('TOKEN', token));
    expect(code.startsWith('6080604052348015600f57600080fd5b506000610167905077618dc65e')).toBe(true);
    expect(code).toContain(`618dc65e${hex(token)}600052366000602037`);
    expect(code.length / 2).toBe(147);
    expect(hex(redirectBytecode('ACCOUNT', token))).toContain(`61016a905077e4cbd3a7${hex(token)}`);
    expect(hex(redirectBytecode('SCHEDULE', token))).toContain(`61016b9050775c3889ca${hex(token)}`);
  });
});
