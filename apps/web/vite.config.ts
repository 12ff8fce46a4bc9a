import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const page = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // The app, and the customer-service page (spec §7), a page of its own on the same tokens.
    rollupOptions: { input: { main: page('index.html'), service: page('service.html') } },
  },
  server: {
    proxy: {
      '/swx': 'http://localhost:8080',
      '/message': { target: 'ws://localhost:8080', ws: true },
    },
  },
});
