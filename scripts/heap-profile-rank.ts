/**
 * Ranks two sampling heap profiles (`.heapprofile`, collected objects kept) of one process, an idle
 * window and a load window, into bytes per placement net of idle and idle bytes per second: by
 * package, by function and by the innermost frame of our own source above the allocation. Also runs
 * alone on saved profiles:
 *
 *   npx tsx scripts/heap-profile-rank.ts <idle.heapprofile> <idleSeconds> <load.heapprofile> <loadSeconds> <placements>
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly callFrame: CallFrame;
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

export interface HeapProfile {
  readonly head: ProfileNode;
}

interface Window {
  readonly profile: HeapProfile;
  readonly seconds: number;
  /** `updown_heap_allocated_bytes_total` over the window, as a check on the profile's estimate. */
  readonly counted?: number;
}

const NODE_MODULES = '/node_modules/';

/** `fastify`, `@fastify/cors`, `ours services/gateway/src/http/hooks.ts`, `node internals` or `VM`. */
function packageOf(url: string, root: string): string {
  const at = url.lastIndexOf(NODE_MODULES);
  if (at >= 0) {
    const parts = url.slice(at + NODE_MODULES.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('node:')) return 'node internals';
  if (url === '') return 'VM';
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  return `ours ${path.relative(root, file)}`;
}

const isOwner = (url: string) => url !== '' && !url.startsWith('node:');
const isOurs = (url: string) => isOwner(url) && !url.includes(NODE_MODULES);

function frameName(frame: CallFrame, root: string): string {
  return `${frame.functionName || '(anonymous)'} ${packageOf(frame.url, root)}:${frame.lineNumber + 1}`;
}

interface Tally {
  readonly byPackage: Map<string, number>;
  readonly byFunction: Map<string, number>;
  readonly byOurFrame: Map<string, number>;
  total: number;
}

/**
 * Each sampled byte is charged to its innermost frame that is neither Node's own code nor the VM
 * (a Buffer made by pg-protocol is pg-protocol's), and separately to the innermost frame of our
 * source above it (which of our calls made kysely build that query).
 */
function tally(profile: HeapProfile, root: string): Tally {
  const out: Tally = { byPackage: new Map(), byFunction: new Map(), byOurFrame: new Map(), total: 0 };
  const add = (map: Map<string, number>, key: string, bytes: number) =>
    map.set(key, (map.get(key) ?? 0) + bytes);
  const walk = (node: ProfileNode, owner: CallFrame | undefined, ours: CallFrame | undefined) => {
    const frame = node.callFrame;
    const nextOwner = isOwner(frame.url) ? frame : owner;
    const nextOurs = isOurs(frame.url) ? frame : ours;
    if (node.selfSize > 0) {
      out.total += node.selfSize;
      const charged = nextOwner ?? frame;
      add(
        out.byPackage,
        nextOwner ? packageOf(charged.url, root) : packageOf(frame.url, root),
        node.selfSize,
      );
      add(out.byFunction, frameName(charged, root), node.selfSize);
      add(out.byOurFrame, nextOurs ? frameName(nextOurs, root) : '(no frame of ours)', node.selfSize);
    }
    for (const child of node.children) walk(child, nextOwner, nextOurs);
  };
  walk(profile.head, undefined, undefined);
  return out;
}

export interface RankInput {
  readonly idle: Window;
  readonly load: Window;
  readonly placements: number;
  readonly root: string;
  readonly rows?: number;
}

const kB = (bytes: number) => (bytes / 1024).toFixed(2).padStart(9);

function table(
  title: string,
  idle: Map<string, number>,
  load: Map<string, number>,
  input: RankInput,
): string {
  const { idle: idleWindow, load: loadWindow, placements } = input;
  const keys = new Set([...idle.keys(), ...load.keys()]);
  const rows = [...keys].map((key) => {
    const idleRate = (idle.get(key) ?? 0) / idleWindow.seconds;
    const loadBytes = load.get(key) ?? 0;
    return {
      key,
      gross: loadBytes / placements,
      net: (loadBytes - idleRate * loadWindow.seconds) / placements,
      idleRate,
    };
  });
  const byNet = [...rows].sort((a, b) => b.net - a.net).slice(0, input.rows ?? 30);
  const byIdle = [...rows].sort((a, b) => b.idleRate - a.idleRate).slice(0, Math.min(15, input.rows ?? 15));
  return [
    `\n## ${title}: kB per placement (net of idle, gross) and idle kB/s`,
    ...byNet.map((r) => `${kB(r.net)} ${kB(r.gross)} ${kB(r.idleRate)}  ${r.key}`),
    `\n## ${title}: top at idle (idle kB/s)`,
    ...byIdle.map((r) => `${kB(r.idleRate)}  ${r.key}`),
  ].join('\n');
}

export function rankProfiles(input: RankInput): string {
  const idle = tally(input.idle.profile, input.root);
  const load = tally(input.load.profile, input.root);
  const perPlacement =
    (load.total - (idle.total / input.idle.seconds) * input.load.seconds) / input.placements;
  const counted = (w: Window) =>
    w.counted === undefined ? '' : `, counter ${kB(w.counted / w.seconds)} kB/s`;
  return [
    `idle: ${input.idle.seconds.toFixed(1)} s, sampled ${kB(idle.total / input.idle.seconds)} kB/s${counted(input.idle)}`,
    `load: ${input.load.seconds.toFixed(1)} s, ${input.placements} placements, sampled ${kB(load.total / input.placements)} kB/placement gross, ${kB(perPlacement)} net of idle` +
      (input.load.counted === undefined
        ? ''
        : `; counter ${kB(input.load.counted / input.placements)} gross, ${kB((input.load.counted - ((input.idle.counted ?? 0) / input.idle.seconds) * input.load.seconds) / input.placements)} net`),
    table('by package', idle.byPackage, load.byPackage, input),
    table('by function', idle.byFunction, load.byFunction, { ...input, rows: 45 }),
    table('by innermost frame of ours', idle.byOurFrame, load.byOurFrame, { ...input, rows: 40 }),
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const [idleFile, idleSeconds, loadFile, loadSeconds, placements] = process.argv.slice(2);
  if (!placements)
    throw new Error('usage: heap-profile-rank <idle> <idleSeconds> <load> <loadSeconds> <placements>');
  const read = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as HeapProfile;
  process.stdout.write(
    rankProfiles({
      idle: { profile: await read(idleFile!), seconds: Number(idleSeconds) },
      load: { profile: await read(loadFile!), seconds: Number(loadSeconds) },
      placements: Number(placements),
      root: path.resolve(import.meta.dirname, '..'),
    }),
  );
}
