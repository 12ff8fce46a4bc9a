import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  base: '/admin/',
  build: { target: 'es2022', sourcemap: false },
  server: { proxy: { '/swx': 'http://localhost:8080' } },
});
