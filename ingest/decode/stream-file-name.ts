/**
 * Record stream file names: `<ISO instant with ':' as '_'>Z.rcd[.gz]`, signatures `…rcd_sig`, sidecars
 * `<instant>Z_<NN>.rcd[.gz]`. Names sort lexicographically in time order.
 */

const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}_\d{2}_\d{2})(?:\.(\d{1,9}))?Z/;

/** The instant a stream file name carries, in nanoseconds since the epoch. */
export function instantOfName(name: string): bigint {
  const match = INSTANT.exec(baseName(name));
  if (!match?.[1]) throw new Error(`not a stream file name: ${name}`);
  const millis = Date.parse(`${match[1].replaceAll('_', ':')}Z`);
  if (Number.isNaN(millis)) throw new Error(`not a stream file name: ${name}`);
  const fraction = (match[2] ?? '').padEnd(9, '0');
  return BigInt(millis) * 1_000_000n + BigInt(fraction);
}

export function baseName(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? key : key.slice(slash + 1);
}

/** `X.rcd_sig` → `X.rcd`; the data file may also exist gzipped as `X.rcd.gz`. */
export function dataNameOfSignature(signatureName: string): string {
  return signatureName.replace(/_sig$/, '');
}

export function isRecordSignatureName(name: string): boolean {
  return /Z\.rcd_sig$/.test(name);
}

/** The sidecar file name for sidecar `id` of a record file (always gzipped for v6). */
export function sidecarName(recordName: string, id: number): string {
  const stem = recordName.replace(/\.rcd(\.gz)?$/, '');
  return `${stem}_${String(id).padStart(2, '0')}.rcd.gz`;
}

/**
 * `<instant>_Balances` for a balance file of consensus time `ns`, the instant as Java's `Instant.toString()` writes it
 * (the fraction in groups of three digits, none when zero) with ':' as '_': how nodes named their balance files, and
 * how the reference importer names the snapshots it takes (StreamFilename.getFilename, with `.csv`).
 */
export function balanceFileStem(ns: bigint): string {
  const iso = new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().slice(0, 19).replaceAll(':', '_');
  const nanos = ns % 1_000_000_000n;
  let fraction = '';
  if (nanos !== 0n) {
    const digits = String(nanos).padStart(9, '0');
    fraction = `.${nanos % 1_000_000n === 0n ? digits.slice(0, 3) : nanos % 1_000n === 0n ? digits.slice(0, 6) : digits}`;
  }
  return `${iso}${fraction}Z_Balances`;
}
