import { connectionHosts } from '../db/primary-connector';

/**
 * Typed environment parsing. Each service declares the variables it reads in its own `config.ts`
 * with these readers; `readEnv` validates all of them at once and throws a `ConfigError` that
 * names every bad variable, so start-up fails with one clear message instead of at first use.
 */

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface Reader<T> {
  readonly describe: string;
  read(name: string, raw: string | undefined): T;
}

class BadValue extends Error {}

function reader<T>(describe: string, read: (name: string, raw: string | undefined) => T): Reader<T> {
  return { describe, read };
}

function present(raw: string | undefined): raw is string {
  return raw !== undefined && raw.trim() !== '';
}

export const env = {
  string(fallback?: string): Reader<string> {
    return reader('string', (name, raw) => {
      if (present(raw)) return raw;
      if (fallback !== undefined) return fallback;
      throw new BadValue(`${name} is required`);
    });
  },
  optionalString(): Reader<string | undefined> {
    return reader('string', (_name, raw) => (present(raw) ? raw : undefined));
  },
  int(fallback: number, bounds: { min?: number; max?: number } = {}): Reader<number> {
    return reader('integer', (name, raw) => {
      if (!present(raw)) return fallback;
      if (!/^-?\d+$/.test(raw.trim())) throw new BadValue(`${name} must be an integer, got "${raw}"`);
      const value = Number(raw);
      if (bounds.min !== undefined && value < bounds.min) {
        throw new BadValue(`${name} must be at least ${bounds.min}, got ${value}`);
      }
      if (bounds.max !== undefined && value > bounds.max) {
        throw new BadValue(`${name} must be at most ${bounds.max}, got ${value}`);
      }
      return value;
    });
  },
  port(fallback: number): Reader<number> {
    return env.int(fallback, { min: 0, max: 65535 });
  },
  bool(fallback: boolean): Reader<boolean> {
    return reader('boolean', (name, raw) => {
      if (!present(raw)) return fallback;
      const value = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(value)) return true;
      if (['0', 'false', 'no', 'off'].includes(value)) return false;
      throw new BadValue(`${name} must be true or false, got "${raw}"`);
    });
  },
  oneOf<const T extends string>(choices: readonly T[], fallback: T): Reader<T> {
    return reader(choices.join('|'), (name, raw) => {
      if (!present(raw)) return fallback;
      if ((choices as readonly string[]).includes(raw.trim())) return raw.trim() as T;
      throw new BadValue(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
    });
  },
  url(protocols: readonly string[], fallback?: string): Reader<string | undefined> {
    return reader('url', (name, raw) => {
      const value = present(raw) ? raw.trim() : fallback;
      if (value === undefined) return undefined;
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        throw new BadValue(`${name} must be a URL, got "${redact(value)}"`);
      }
      if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        throw new BadValue(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
      }
      return value;
    });
  },
  /**
   * A PostgreSQL URL, with one host or several (libpq's `postgres://h1:5432,h2:5433/db`, for a
   * primary and its standbys; the platform connects to the writable one, db/primary-connector.ts).
   */
  postgresUrl(): Reader<string | undefined> {
    return reader('postgres URL', (name, raw) => {
      if (!present(raw)) return undefined;
      const value = raw.trim();
      if (!/^postgres(ql)?:\/\//i.test(value)) {
        throw new BadValue(`${name} must be a postgres:// or postgresql:// URL`);
      }
      try {
        connectionHosts(value);
      } catch (error) {
        throw new BadValue(`${name} is not usable: ${(error as Error).message}`);
      }
      return value;
    });
  },
  list(fallback: readonly string[] = []): Reader<string[]> {
    return reader('comma-separated list', (_name, raw) =>
      present(raw)
        ? raw
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== '')
        : [...fallback],
    );
  },
};

/** Hides the password of a connection URL in error messages. */
function redact(value: string): string {
  return value.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

export type ConfigSpec = Record<string, Reader<unknown>>;
export type ConfigOf<S extends ConfigSpec> = {
  readonly [K in keyof S]: S[K] extends Reader<infer T> ? T : never;
};

export function readEnv<S extends ConfigSpec>(spec: S, source: Env): ConfigOf<S> {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(spec)) {
    try {
      out[name] = field.read(name, source[name]);
    } catch (error) {
      if (error instanceof BadValue) problems.push(error.message);
      else throw error;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(out) as ConfigOf<S>;
}
