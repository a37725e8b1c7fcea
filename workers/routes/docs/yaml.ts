/**
 * JSON values as block-style YAML, for the OpenAPI document's `.yml` form (the document itself is JSON: see
 * docs/adr/0020-openapi-document.md). Only what JSON holds is written: mappings, sequences, strings, numbers,
 * booleans and null. A string is written plain only when YAML reads it back as that same string; otherwise
 * double-quoted with JSON's escapes (a subset of YAML's), or as a literal block when it spans lines.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Plain scalars that YAML (1.1 or 1.2) would read as something other than a string. */
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;
/** A first character that is no indicator, then characters that never end a plain scalar in block context. */
const PLAIN = /^[A-Za-z_/$][A-Za-z0-9_ .,/$(){}=+*<>'`-]*$/;

function scalar(text: string): string {
  const plain = PLAIN.test(text) && !RESERVED.test(text) && !text.endsWith(' ') && !text.includes(' #');
  return plain ? text : JSON.stringify(text);
}

/** A literal block keeps lines as they are: usable when no line ends in a space and nothing needs escaping. */
function literalBlock(text: string, indent: string): string | undefined {
  if (!text.includes('\n') || /^[ \n]|[ \t]\n|[ \t]$|\n\n$/.test(text)) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a literal block cannot hold
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(text)) return undefined;
  const chomp = text.endsWith('\n') ? '|' : '|-';
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return `${chomp}\n${body
    .split('\n')
    .map((line) => (line === '' ? '' : indent + line))
    .join('\n')}`;
}

function inline(value: Json, indent: string): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return literalBlock(value, indent) ?? scalar(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined;
  return Object.keys(value).length === 0 ? '{}' : undefined;
}

function lines(value: Json, indent: string, out: string[]): void {
  const deeper = `${indent}  `;
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = inline(item, deeper);
      if (text !== undefined) {
        out.push(`${indent}- ${text}`);
        continue;
      }
      // the item's first line goes after the dash, its other lines at the item's indentation
      const nested: string[] = [];
      lines(item, deeper, nested);
      out.push(`${indent}- ${nested[0]?.slice(deeper.length) ?? ''}`, ...nested.slice(1));
    }
    return;
  }
  for (const [key, child] of Object.entries(value as { [key: string]: Json })) {
    const text = inline(child, deeper);
    if (text !== undefined) {
      out.push(`${indent}${scalar(key)}: ${text}`);
    } else {
      out.push(`${indent}${scalar(key)}:`);
      lines(child, Array.isArray(child) ? indent : deeper, out);
    }
  }
}

/** A YAML document holding `value` (parsed JSON: a mapping or a sequence), ending with a newline. */
export function toYaml(value: unknown): string {
  const out: string[] = [];
  lines(value as Json, '', out);
  return `${out.join('\n')}\n`;
}
