import { expect, it } from 'vitest';
import { unusableSettings } from './usable-settings.ts';

it('refuses a host under the reserved `invalid` name without asking a resolver (RFC 6761)', async () => {
  await expect(unusableSettings('postgres://u:secret@db.example.invalid:5432/mirror', [])).resolves.toBe(
    'DATABASE_URL=postgres://u:***@db.example.invalid:5432/mirror names a host that does not exist (db.example.invalid): check DATABASE_URL',
  );
});

it('accepts a host that resolves and a source directory that exists', async () => {
  await expect(unusableSettings('postgres://u:secret@localhost:5432/mirror', ['.'])).resolves.toBeUndefined();
});
