import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (name: string) => fileURLToPath(new URL(name, import.meta.url));

// Two pages: the chat, and the OAuth callback the sign-in popup lands on.
export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    // The page needs all of it at once: ~500 kB (~138 kB gzip), mostly the AI SDK and its zod.
    chunkSizeWarningLimit: 600,
    rolldownOptions: { input: { main: page('index.html'), callback: page('callback.html') } },
  },
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
});
