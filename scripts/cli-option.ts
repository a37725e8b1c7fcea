/** The word after `--<name>` in a script's arguments; undefined when the option is absent or ends them. */
export function optionValue(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}
