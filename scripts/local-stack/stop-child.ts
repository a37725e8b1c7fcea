import type { ChildProcess } from 'node:child_process';

/** SIGTERM to a child that honours it (it finishes its work in hand), SIGKILL if it is still there after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timeout = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timeout);
}
