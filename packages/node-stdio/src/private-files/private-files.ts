import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';

// Undefined on Windows, where opening a path never follows a POSIX symbolic link.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/**
 * How a file of the store is opened for reading: never through a symbolic link,
 * and without waiting (a FIFO planted at the path would block a plain open for
 * ever; with O_NONBLOCK the open returns, and fstat shows what it is).
 */
export const OPEN_UNFOLLOWED = constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/**
 * Whose directory the checks guard, for their messages and errors: the bridge's
 * token store or a FileStore.
 */
export interface PrivatePlace {
  /** What the messages call the directory: `token store`. */
  readonly noun: string;
  /** What they call one file in it: `token file`. */
  readonly fileNoun: string;
  /** How the user names another directory: `--token-store`. */
  readonly option: string;
  /** The error a refusal throws, with the path refused and the message (which says how to fix it). */
  readonly refuse: (path: string, message: string) => Error;
}

/**
 * The user whose files the store trusts: this process's. Undefined where the
 * platform has no uids (Windows): there the store relies on the directory's
 * ACL (the default one is in the user's profile) and checks neither owner nor mode.
 */
export function ownUid(): number | undefined {
  return process.getuid?.();
}

/**
 * Makes `directory` ready for secrets, before anything in it is read: created
 * 0700 when missing; refused when it is a symbolic link, not a directory, or
 * another user's, or when group or others may write it (anything in it may have
 * been planted or renamed); narrowed to 0700 when they may only read it. The
 * checks and the narrowing go through one handle opened without following
 * links, so the directory cannot be swapped between them. Each file is checked
 * again by {@link readPrivateFile}.
 */
export async function preparePrivateDirectory(directory: string, place: PrivatePlace): Promise<void> {
  const uid = ownUid();
  const seen = await lstat(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    return undefined;
  });
  if (!seen) await mkdir(directory, { recursive: true, mode: 0o700 });
  if (uid === undefined || constants.O_DIRECTORY === undefined) {
    // Windows opens no directory handle: the link and type checks go by path.
    const stats = await lstat(directory);
    if (stats.isSymbolicLink()) throw linkRefused(directory, place);
    if (!stats.isDirectory()) throw notADirectory(directory, place);
    return;
  }
  const handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY | NOFOLLOW).catch(
    async (error: NodeJS.ErrnoException) => {
      // Linux answers a link with ENOTDIR here, macOS with ELOOP: lstat tells which it was.
      if (error.code !== 'ELOOP' && error.code !== 'ENOTDIR') throw error;
      throw (await lstat(directory)).isSymbolicLink() ? linkRefused(directory, place) : notADirectory(directory, place);
    },
  );
  try {
    const stats = await handle.stat();
    if (stats.uid !== uid) {
      throw place.refuse(
        directory,
        `the ${place.noun} ${directory} belongs to another user (uid ${stats.uid}, not ${uid}); refusing to use it. ` +
          `Give ${place.option} a directory of your own, or if this one is yours: chown ${uid} '${directory}'`,
      );
    }
    if ((stats.mode & 0o022) !== 0) {
      // Anyone who could write here could have planted or renamed a file in it: use it only once its owner
      // has looked.
      throw place.refuse(
        directory,
        `the ${place.noun} ${directory} may be written by group or others (mode ${(stats.mode & 0o777).toString(8)}); ` +
          `refusing to use it. Check what is in it, then: chmod 700 '${directory}'`,
      );
    }
    // Read access alone let nobody change what is here: taking it away is safe.
    if ((stats.mode & 0o077) !== 0) await handle.chmod(0o700);
  } finally {
    await handle.close();
  }
}

/**
 * The text of `file`, or undefined when there is none. Opened without
 * following a link, then checked on the open handle (so what is checked is
 * what is read): a regular file of ours with one name, that neither group nor
 * others may read or write. Anything else is refused before a byte of it is
 * parsed, with the fix in the message.
 */
export async function readPrivateFile(file: string, place: PrivatePlace): Promise<string | undefined> {
  const handle = await open(file, OPEN_UNFOLLOWED).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    if (error.code === 'ELOOP') throw linkRefused(file, place);
    throw error;
  });
  if (!handle) return undefined;
  try {
    const problem = untrusted(await handle.stat(), file);
    if (problem !== undefined) throw place.refuse(file, `refusing the ${place.fileNoun} ${file}: ${problem}`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Why `file`, with these stats, cannot hold our tokens and what to do about it; undefined when it can. */
function untrusted(stats: Stats, file: string): string | undefined {
  if (!stats.isFile()) return `it is not a regular file; remove it (rm -r '${file}')`;
  const uid = ownUid();
  if (uid === undefined) return undefined;
  if (stats.uid !== uid) return `it belongs to user ${stats.uid}, not to you (${uid}); remove it (rm '${file}')`;
  if ((stats.mode & 0o077) !== 0) {
    const mode = (stats.mode & 0o777).toString(8);
    return `group or others may use it (mode ${mode}); if it is yours chmod 600 '${file}', else remove it`;
  }
  // Another name for it may be another server's token file, linked here to be sent to this one. No name at
  // all (0) is a file of ours that a writer replaced (renamed over) after we opened it: what we read is the
  // value just before that write.
  if (stats.nlink > 1) return `it has ${stats.nlink} names (hard links); remove it (rm '${file}')`;
  return undefined;
}

function linkRefused(path: string, place: PrivatePlace): Error {
  return place.refuse(
    path,
    `refusing the ${place.noun} path ${path}: it is a symbolic link; remove it, or give ${place.option} the real directory`,
  );
}

function notADirectory(path: string, place: PrivatePlace): Error {
  return place.refuse(path, `the ${place.noun} ${path} is not a directory`);
}
