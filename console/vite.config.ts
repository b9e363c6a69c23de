import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const GATEWAY = 'http://127.0.0.1:8080';

/**
 * sonner injects its stylesheet with a runtime `<style>` element, which the gateway's CSP
 * (`style-src 'self'`) refuses. The console imports `sonner/dist/styles.css` instead, so the
 * injection is turned into a no-op at build time.
 */
function sonnerWithoutStyleInjection(): Plugin {
  return {
    name: 'updown:sonner-without-style-injection',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      return {
        code: code.replace('function __insertCSS(code) {', 'function __insertCSS(code) {\n  return;'),
        map: null,
      };
    },
  };
}

/** Smaller files gain less from compression than the encoding header and the extra file cost. */
const PRECOMPRESS_BYTES_MIN = 1024;
const PRECOMPRESSED = /\.(m?js|css|html|svg|json)$/;

/**
 * Writes a gzip and a brotli copy beside every text file of the build. The gateway serves them to
 * browsers that accept the encoding (`@fastify/static`'s `preCompressed`), so a phone on a slow
 * link downloads about a quarter of the bytes, compressed once at the highest levels at build time
 * instead of on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'updown:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      // Vite's own manifest (under `.vite/`) is for the build's tests, never served.
      const files = Object.keys(bundle).filter(
        (file) => PRECOMPRESSED.test(file) && !file.startsWith('.vite/'),
      );
      await Promise.all(
        files.map(async (file) => {
          const source = await readFile(path.join(outDir, file));
          if (source.length < PRECOMPRESS_BYTES_MIN) return;
          const [gz, br] = await Promise.all([
            promisify(gzip)(source, { level: zlib.Z_BEST_COMPRESSION }),
            promisify(brotliCompress)(source, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
          ]);
          await Promise.all([
            writeFile(path.join(outDir, `${file}.gz`), gz),
            writeFile(path.join(outDir, `${file}.br`), br),
          ]);
        }),
      );
    },
  };
}

/**
 * Writes `.vite/chunk-modules.json` beside Vite's manifest: each chunk's file and the modules
 * bundled into it, relative to the console. The bundle-budget test reads both to prove which
 * libraries the landing page's chunks hold; neither file is served (the gateway ignores dot
 * directories).
 */
function chunkModules(): Plugin {
  let root = '';
  return {
    name: 'updown:chunk-modules',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[output.fileName] = output.moduleIds.map((id) =>
          path.relative(root, id).split(path.sep).join('/'),
        );
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: JSON.stringify(chunks, null, 2),
      });
    },
  };
}

/**
 * Code the lazily loaded pages share: the signed-in header, formatting, ids, the market, trade
 * and wallet queries, and TanStack Query's mutations. Left to itself the bundler makes a chunk of
 * each such module (some of 0.1 kB), and over the gateway's HTTP/1.1 each chunk is one more
 * request queued for one of six connections before the trading page can paint; as one chunk they
 * are 2–3 kB gzipped. Only the modules matched go in (not their imports, which the entry chunk
 * already holds); none of them is used by the landing page, which the bundle-budget test checks.
 */
const SHARED_BY_PAGES = [
  /[\\/]console[\\/]src[\\/]components[\\/]/,
  /[\\/]console[\\/]src[\\/]lib[\\/](format|amount|random-id)\.ts$/,
  /[\\/]console[\\/]src[\\/]features[\\/](market|trades|wallet)[\\/]api[\\/]/,
  /[\\/]schemas[\\/]src[\\/]market\.ts$/,
  /[\\/]@tanstack[\\/](react-query|query-core)[\\/]build[\\/]modern[\\/](useMutation|mutationObserver)\.js$/,
];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), sonnerWithoutStyleInjection(), precompress(), chunkModules()],
  // Split by route (see README): the manifest lets the bundle-budget test walk each entry's imports.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'pages-shared',
              test: (id) => SHARED_BY_PAGES.some((pattern) => pattern.test(id)),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: GATEWAY, changeOrigin: true, ws: true },
      // The public key set receipts are verified against.
      '/.well-known': { target: GATEWAY, changeOrigin: true },
    },
  },
});
