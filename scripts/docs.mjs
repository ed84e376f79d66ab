/**
 * `pnpm run docs`: the API reference in docs/api/, built by typedoc from the doc comments of every
 * public entry (typedoc.json). It fails on an undocumented export or a broken link. Arguments go to
 * typedoc (`pnpm run docs --emit none` checks without writing). Not `pnpm docs`: that is a pnpm
 * command of its own (it opens a package's homepage).
 *
 * typedoc runs on TypeScript 6: scripts/docs/typescript6.mjs says why and how. The landing page is
 * written first (scripts/docs/landing-page.mjs).
 */
import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeLandingPage } from './docs/landing-page.mjs';

writeLandingPage();
register('./docs/typescript6.mjs', import.meta.url);

// typedoc's own command line (what its `bin` runs), in this process so the hook applies.
const typedocRoot = dirname(createRequire(import.meta.url).resolve('typedoc/package.json'));
await import(pathToFileURL(join(typedocRoot, 'dist', 'cli.js')).href);
