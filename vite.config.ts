import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { escapeHtml } from './src/shared/html';
import { DEFAULT_PUBLIC_CONFIG as defaults, publicConfigFrom } from './src/shared/public-config';

/**
 * In `npm run dev` the page is not prerendered: fill the config tag the
 * server would fill, from the same environment variables.
 */
function devPublicConfig(): Plugin {
  return {
    name: 'coverly-dev-public-config',
    apply: 'serve',
    transformIndexHtml(html) {
      const config = publicConfigFrom({
        brandName: process.env.BRAND_NAME || defaults.brandName,
        contactEmail: process.env.CONTACT_EMAIL || defaults.contactEmail,
        contactPhone: process.env.CONTACT_PHONE || defaults.contactPhone,
        contactCity: process.env.CONTACT_CITY || defaults.contactCity,
      });
      return html
        .replace('__COVERLY_PUBLIC_CONFIG__', escapeHtml(JSON.stringify(config)))
        .replace('<!--page-head-->', `<title>${escapeHtml(config.brandName)}</title>`);
    },
  };
}

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  publicDir: fileURLToPath(new URL('./src/web/public', import.meta.url)),
  plugins: [react(), tailwindcss(), devPublicConfig()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // The CSP forbids inline scripts, so never inline the module preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // scripts/prerender.mjs reads it to preload each page's own chunk.
    manifest: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod's sources carry comments Rollup cannot place; harmless and not ours.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': apiTarget, '/healthz': apiTarget, '/readyz': apiTarget },
  },
});
