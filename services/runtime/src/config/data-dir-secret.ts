import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A secret a development machine generates once and keeps in `DATA_DIR` (the JWT key, the signing
 * key): read back when the file exists; otherwise written whole under a private name (mode 600)
 * and linked into place. `link` fails if the file exists, so when several processes start at once
 * the first wins, the others read the winner's, and nobody ever sees the file empty or half written.
 */
export async function readOrCreateSecretFile<T>(options: {
  readonly dataDir: string;
  readonly file: string;
  /** The new secret's file text. */
  readonly generate: () => string;
  /** The secret in a file's text; throws (a `ConfigError` naming the file) when it is unusable. */
  readonly parse: (text: string, file: string) => T;
}): Promise<{ readonly secret: T; readonly created: boolean; readonly file: string }> {
  const dir = path.resolve(options.dataDir);
  const file = path.join(dir, options.file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const existing = await readText(file);
  if (existing !== undefined) return { secret: options.parse(existing, file), created: false, file };
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, options.generate(), { mode: 0o600, flag: 'wx' });
  let created = true;
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
  } finally {
    await unlink(draft);
  }
  const written = await readText(file);
  if (written === undefined) throw new Error(`${file} vanished after it was written`);
  return { secret: options.parse(written, file), created, file };
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
