import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';

const SRC = path.join(import.meta.dirname, '..', 'src');
/** The only modules that may use Node: the node:crypto port and the command line. */
const NODE_ONLY = new Set(['node-crypto.js', 'cli.js']);

describe('the browser-safe modules', () => {
  it('import nothing from Node and use no Node global', async () => {
    const files = (await readdir(SRC)).filter((name) => name.endsWith('.js') && !NODE_ONLY.has(name));
    expect(files).toContain('index.js');
    for (const name of files) {
      const source = await readFile(path.join(SRC, name), 'utf8');
      const imports = [...source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)].map(
        (m) => m[1],
      );
      for (const specifier of imports)
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^\.\/[a-z0-9-]+\.js$/);
      expect(imports.filter((specifier) => NODE_ONLY.has(path.basename(specifier ?? '')))).toEqual([]);
      expect(source, name).not.toMatch(/\b(?:Buffer|process|require)\b/);
    }
  });

  it('bundle with Vite for the browser without node:crypto', async () => {
    const output = (await build({
      configFile: false,
      root: path.join(SRC, '..'),
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: { entry: path.join(SRC, 'index.js'), formats: ['es'], fileName: 'verify' },
      },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    const chunks = (Array.isArray(output) ? output : [output])
      .flatMap((result) => result.output)
      .filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
    const modules = chunks.flatMap((chunk) => chunk.moduleIds.map((id) => path.basename(id)));
    expect(modules).toContain('verify-receipt.js');
    expect(modules.filter((id) => NODE_ONLY.has(id) || id.includes('browser-external'))).toEqual([]);
    const code = chunks.map((chunk) => chunk.code).join('\n');
    expect(code).not.toMatch(/from\s*["']node:|import\(\s*["']node:|__vite-browser-external|createHash\(/);
    expect(code).toMatch(/export \{/);
  }, 60_000);
});
