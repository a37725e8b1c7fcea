/** An ObjectStore over a local directory: keys are '/'-separated paths relative to the root. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ObjectStore } from './object-store.ts';

export class DirStore implements ObjectStore {
  readonly description: string;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `dir:${this.root}`;
  }

  async list(prefix: string, startAfter: string, limit: number): Promise<string[]> {
    // Prefixes used by the ingest always end at a folder boundary.
    const folder = prefix.endsWith('/') || prefix === '' ? prefix : `${prefix}/`;
    let names: string[];
    try {
      names = (await readdir(path.join(this.root, folder), { withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => e.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names
      .map((name) => folder + name)
      .filter((key) => key > startAfter)
      .sort()
      .slice(0, limit);
  }

  async listFolders(prefix: string): Promise<string[]> {
    try {
      const entries = await readdir(path.join(this.root, prefix), { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => `${prefix}${e.name}/`)
        .sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(path.join(this.root, key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
