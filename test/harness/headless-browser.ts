/**
 * A real headless Chromium for tests, from the npm registry alone: @sparticuz/chromium's tarball carries a
 * brotli-compressed Chromium headless shell, the NSS libraries it links, and fonts, so a clone has a browser after
 * `npm ci`, offline, with nothing downloaded at install (docs/adr/0025-browser-for-tests.md). Unpacked once per
 * installed version under `.data/chromium`, then driven by playwright-core.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { REPO_ROOT } from '../../scripts/local-stack/worker-process.ts';

/** The package's root: the nearest folder above its entry module (its exports name no other) with its package.json. */
const PACKAGE_DIR = packageRoot(createRequire(import.meta.url).resolve('@sparticuz/chromium'));

function packageRoot(entry: string): string {
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'bin', 'chromium.br'))) return dir;
  }
  throw new Error(`no @sparticuz/chromium package with bin/chromium.br above ${entry}`);
}

/**
 * Flags for a browser that talks to nothing but the page under test: no sandbox (tests run as root), no GPU, no
 * background, update or sync traffic, and every host name but 127.0.0.1 unresolvable, so even a request the test's
 * own routing missed cannot leave the machine.
 */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export async function launchChromium(): Promise<Browser> {
  const dir = unpacked();
  return chromium.launch({
    executablePath: path.join(dir, 'chromium'),
    args: FLAGS,
    env: {
      ...process.env,
      LD_LIBRARY_PATH: path.join(dir, 'lib'),
      FONTCONFIG_PATH: path.join(dir, 'fonts'),
      // Chromium keeps its own files (NSS database, crash reports) under HOME: here, not in the user's home.
      HOME: dir,
    },
  });
}

/** The unpacked browser's folder: made once per package version; a concurrent unpacking loses the rename harmlessly. */
function unpacked(): string {
  const version = (JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string })
    .version;
  const dir = path.join(REPO_ROOT, '.data/chromium', version);
  if (existsSync(dir)) return dir;
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const bin = (name: string) => brotliDecompressSync(readFileSync(path.join(PACKAGE_DIR, 'bin', name)));
  writeFileSync(path.join(partial, 'chromium'), bin('chromium.br'), { mode: 0o755 });
  // al2023.tar.br holds `lib/…`: NSS, NSPR and expat, built for the same glibc range as the browser.
  untar(bin('al2023.tar.br'), partial);
  untar(bin('fonts.tar.br'), partial);
  // The package's fonts.conf names /tmp/fonts; this one names where the fonts are once renamed into place.
  writeFileSync(
    path.join(partial, 'fonts/fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(dir, 'fonts')}</dir>\n  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  try {
    renameSync(partial, dir);
  } catch (error) {
    if (!existsSync(dir)) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
  return dir;
}

/** Writes the regular files and folders of a ustar archive under `into`. */
function untar(archive: Buffer, into: string): void {
  for (let at = 0; at + 512 <= archive.length; ) {
    const header = archive.subarray(at, at + 512);
    const field = (from: number, length: number) => header.toString('utf8', from, from + length).replace(/\0.*$/s, '');
    const name = path.posix.join(field(345, 155), field(0, 100));
    if (!field(0, 100)) break;
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const target = path.join(into, name);
    if (!target.startsWith(into + path.sep)) throw new Error(`archive entry outside its folder: ${name}`);
    if (type === '5') mkdirSync(target, { recursive: true });
    if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, archive.subarray(at + 512, at + 512 + size));
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
}
