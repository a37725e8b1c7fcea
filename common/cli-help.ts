/**
 * A CLI asked for `--help` (or `-h`) prints its usage and exits 0, before it starts anything: call it first thing,
 * with the arguments after `npm run <script> --`.
 */
export function answerHelp(argv: readonly string[], usage: string): void {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  console.log(usage);
  process.exit(0);
}
