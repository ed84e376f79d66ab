import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { sandboxOrigin } from './sandbox-origin.js';

const page = (name: string) => fileURLToPath(new URL(name, import.meta.url));

// Two pages: the chat, and the OAuth callback the sign-in popup (or the plain link) lands on. Beside them, on
// the next port, the MCP Apps sandbox proxy (another origin).
export default defineConfig({
  base: './',
  plugins: [react(), sandboxOrigin()],
  build: {
    target: 'es2022',
    // The chat needs all of it at once: React, the AI SDK and its zod, @mcp/core's connection layer.
    chunkSizeWarningLimit: 800,
    rolldownOptions: { input: { main: page('index.html'), callback: page('callback.html') } },
  },
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
});
