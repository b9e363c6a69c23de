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

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), sonnerWithoutStyleInjection()],
  // One bundle: the chart library alone is ~170 kB and every signed-in page needs it soon anyway.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 700 },
  server: {
    proxy: {
      '/api': { target: GATEWAY, changeOrigin: true, ws: true },
    },
  },
});
