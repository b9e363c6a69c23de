import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * load-tests/compose.load.yml names the services that serve the API in docker-compose.yml. If one
 * is renamed there, the override would describe a service with no image; these checks say so.
 */

const repoRoot = path.resolve(import.meta.dirname, '..');
const mainFile = path.join(repoRoot, 'docker-compose.yml');
const overrideFile = path.join(import.meta.dirname, 'compose.load.yml');

function overriddenServices(): string[] {
  const source = readFileSync(overrideFile, 'utf8');
  const services = source.slice(source.indexOf('\nservices:\n'));
  return [...services.matchAll(/^ {2}([a-z][\w-]*):\s*$/gm)].map((match) => match[1]!);
}

function composeCli(): string[] | undefined {
  const works = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    return result.error === undefined && result.status === 0;
  };
  if (works('docker', ['compose', 'version'])) return ['docker', 'compose'];
  if (works('docker-compose', ['version'])) return ['docker-compose'];
  return undefined;
}

describe('the compose override for load runs', () => {
  it('overrides only services docker-compose.yml defines, the API-serving ones included', () => {
    const main = readFileSync(mainFile, 'utf8');
    const services = overriddenServices();
    expect(services.length).toBeGreaterThan(0);
    for (const service of services) expect(main).toMatch(new RegExp(`^ {2}${service}:\\s*$`, 'm'));
    // Whatever publishes :8080 inside the stack must be one of them.
    const publishing = [...main.matchAll(/^ {2}([a-z][\w-]*):\s*$/gm)]
      .map((match) => match[1]!)
      .filter((service) => {
        const block = main.slice(main.indexOf(`\n  ${service}:`) + 1).split(/\n {2}[a-z][\w-]*:\s*\n/)[0]!;
        return /:8080['"]?\s*$/m.test(block);
      });
    for (const service of publishing) expect(services).toContain(service);
  });

  const cli = composeCli();
  it.skipIf(cli === undefined)(
    `is accepted by Compose on top of docker-compose.yml${cli ? '' : ' (skipped: no Compose CLI)'}`,
    () => {
      const [command, ...args] = cli!;
      const result = spawnSync(command!, [...args, '-f', mainFile, '-f', overrideFile, 'config'], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.status).toBe(0);
      expect(result.stdout.match(/AUTH_IP_RATE_MAX: '100000'/g)?.length).toBe(overriddenServices().length);
    },
  );
});
