import { randomBytes } from 'node:crypto';
import { ConfigError, readOrCreateSecretFile, type Logger } from '@updown/runtime';
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
 * `<DATA_DIR>/jwt-secret` (mode 600, `readOrCreateSecretFile`), so a restart of a development
 * machine keeps its sessions and several processes sharing `DATA_DIR` agree on the key.
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
  const { secret, created, file } = await readOrCreateSecretFile({
    dataDir: config.DATA_DIR,
    file: JWT_SECRET_FILE,
    generate: () => `${randomBytes(48).toString('base64url')}\n`,
    parse: (text, path) => {
      const secret = text.trim();
      if (secret.length < JWT_SECRET_LENGTH_MIN) {
        throw new ConfigError([`${path} holds no usable JWT key; delete it to generate a new one`]);
      }
      return secret;
    },
  });
  if (created)
    logger.info({ file }, 'generated a JWT signing key for this machine; set JWT_SECRET to choose one');
  return secret;
}
