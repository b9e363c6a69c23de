import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The admin account a test platform creates at start when asked to (`admin: TEST_ADMIN`). */
export const TEST_ADMIN = Object.freeze({ email: 'admin@example.com', password: 'Admin-pass-123' });

export interface TestPlatformEnvOptions {
  /** Names the temporary directory. */
  readonly name: string;
  /** The port the gateway listens on; 0 picks a free one. */
  readonly port: number;
  /** The admin account created at start, if any. */
  readonly admin?: { readonly email: string; readonly password: string };
  /** Configuration variables added to, or replacing, the defaults. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface TestPlatformEnv {
  readonly env: Readonly<Record<string, string>>;
  readonly jwtSecret: string;
  /** Removes the temporary data directory. */
  cleanUp(): Promise<void>;
}

/**
 * The configuration every test platform starts from, in process or as a child: loopback only, a
 * temporary `DATA_DIR`, a random JWT secret, and a `CONSOLE_DIR` that holds no build (so the
 * placeholder page is served and nothing is built at start) unless `env` names one.
 */
export async function testPlatformEnv(options: TestPlatformEnvOptions): Promise<TestPlatformEnv> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `updown-${options.name}-`));
  const jwtSecret = options.env?.JWT_SECRET ?? randomBytes(48).toString('base64url');
  return {
    env: {
      UPDOWN_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      DATA_DIR: dataDir,
      CONSOLE_DIR: path.join(dataDir, 'no-console'),
      JWT_SECRET: jwtSecret,
      ...(options.admin ? { ADMIN_EMAIL: options.admin.email, ADMIN_PASSWORD: options.admin.password } : {}),
      ...options.env,
    },
    jwtSecret,
    cleanUp: () => rm(dataDir, { recursive: true, force: true }),
  };
}
