import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY } from './src/shared/content-security-policy';

/** Puts the CSP into the built index.html (file:// pages get no headers); dev keeps HMR working. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'flint-content-security-policy',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`),
  };
}

export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        // Two entries, one core: the Electron shell and the loopback serve shell.
        input: {
          index: resolve('src/main/index.ts'),
          serve: resolve('src/main/serve/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rolldownOptions: {
        // Sandboxed preloads cannot be ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    plugins: [react(), contentSecurityPolicy()],
    // React + CodeMirror make one ~600 kB chunk (≈200 kB gzipped); languages load lazily.
    build: { minify: process.env.FLINT_NO_MINIFY !== '1', chunkSizeWarningLimit: 800 },
  },
});
