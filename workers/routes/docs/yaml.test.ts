import { describe, expect, it } from 'vitest';
import { toYaml } from './yaml.ts';

describe('toYaml', () => {
  it('writes mappings and sequences in block style, keeping key order', () => {
    const value = { b: 1, a: [{ x: true, z: null }, 'text'], empty: {}, none: [] };
    expect(toYaml(value)).toBe('b: 1\na:\n- x: true\n  z: null\n- text\nempty: {}\nnone: []\n');
  });

  it('quotes a string YAML would read as something else, and keys alike', () => {
    const value = { '200': 'true', on: '0.0.2', 'a: b': '#/components/x', '': '', n: 'null', s: 'ends ' };
    expect(toYaml(value)).toBe(
      '"200": "true"\n"on": "0.0.2"\n"a: b": "#/components/x"\n"": ""\n"n": "null"\ns: "ends "\n',
    );
  });

  it('writes plain text plain, including path templates', () => {
    expect(toYaml({ '/api/v1/accounts/{id}': 'List account entities, by id' })).toBe(
      '/api/v1/accounts/{id}: List account entities, by id\n',
    );
  });

  it('writes text of several lines as a literal block, indented under its key', () => {
    expect(toYaml({ a: { d: 'one\n  two\n\nthree' } })).toBe('a:\n  d: |-\n    one\n      two\n\n    three\n');
    expect(toYaml({ d: 'one\ntwo\n' })).toBe('d: |\n  one\n  two\n');
  });

  it('quotes text of several lines that a literal block cannot hold', () => {
    expect(toYaml({ d: ' lead\nx', t: 'tab\there\nx' })).toBe('d: " lead\\nx"\nt: "tab\\there\\nx"\n');
  });
});
