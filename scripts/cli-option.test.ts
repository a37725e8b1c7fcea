import { describe, expect, it } from 'vitest';
import { optionValue } from './cli-option.ts';

describe('optionValue', () => {
  it('is the word after the option, wherever the option stands', () => {
    expect(optionValue(['--duration', '5', '--connections', '8'], 'connections')).toBe('8');
    expect(optionValue(['--only', '/blocks'], 'only')).toBe('/blocks');
  });

  it('is undefined for an option that is absent or ends the arguments', () => {
    expect(optionValue(['--duration', '5'], 'connections')).toBeUndefined();
    expect(optionValue(['--duration'], 'duration')).toBeUndefined();
  });
});
