import { describe, expect, it, vi } from 'vitest';
import { nearDatabase } from './location-hint.ts';

describe('nearDatabase', () => {
  it('passes a Cloudflare location hint on to the object', () => {
    expect(nearDatabase('enam')).toEqual({ locationHint: 'enam' });
    expect(nearDatabase('apac-se')).toEqual({ locationHint: 'apac-se' });
  });

  it('gives no hint when none is set', () => {
    expect(nearDatabase(undefined)).toBeUndefined();
    expect(nearDatabase('')).toBeUndefined();
  });

  it('ignores a value that is not a hint, reporting it once', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(nearDatabase('us-east-1')).toBeUndefined();
    expect(nearDatabase('us-east-1')).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({ level: 'error', hint: 'us-east-1' });
    log.mockRestore();
  });
});
