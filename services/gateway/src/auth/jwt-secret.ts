import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type Logger } from '@updown/runtime';
import { JWT_SECRET_LENGTH_MIN } from './auth.config';

export const JWT_SECRET_FILE = 'jwt-secret';

interface SecretConfig {
  readonly UPDOWN_ENV: string;
  readonly JWT_SECRET: string | undefined;
  readonly DATA_DIR: string;
}

/**
 * The key access tokens are signed with. `JWT_SECRET` when set (production requires it; see
 * auth.config.ts). Otherwise, outside production, a random key generated once and kept in
 * `<DATA_DIR>/jwt-secret` (mode 600), so a restart of a development machine keeps its sessions
 * and several processes sharing `DATA_DIR` agree on the key.
 */
export async function resolveJwtSecret(config: SecretConfig, logger: Logger): Promise<string> {
  if (config.JWT_SECRET !== undefined) {
    if (config.JWT_SECRET.length < JWT_SECRET_LENGTH_MIN) {
      logger.warn(`JWT_SECRET is shorter than ${JWT_SECRET_LENGTH_MIN} characters; production refuses it`);
    }
    return config.JWT_SECRET;
  }
  if (config.UPDOWN_ENV === 'production')
    throw new ConfigError(['JWT_SECRET is required when UPDOWN_ENV=production']);
  const dir = path.resolve(config.DATA_DIR);
  const file = path.join(dir, JWT_SECRET_FILE);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const existing = await readSecret(file);
  if (existing !== undefined) return existing;
  const secret = randomBytes(48).toString('base64url');
  // Written whole under a private name, then linked into place: `link` fails if the file exists,
  // so the first process wins and nobody ever sees the key file empty or half written.
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readSecret(file);
    if (winner === undefined) throw error;
    return winner;
  } finally {
    await unlink(draft);
  }
  logger.info({ file }, 'generated a JWT signing key for this machine; set JWT_SECRET to choose one');
  return secret;
}

async function readSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < JWT_SECRET_LENGTH_MIN) {
    throw new ConfigError([`${file} holds no usable JWT key; delete it to generate a new one`]);
  }
  return secret;
}
