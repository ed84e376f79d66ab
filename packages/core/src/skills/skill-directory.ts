import type { Client } from '../client/client.js';
import { SkillVerificationError } from '../errors/skill-verification-error.js';
import type { Resource } from '../protocol/resources.js';
import { childKey, directChildren, listDirectory, type ReadDirectoryOptions } from './read-directory.js';
import { DIRECTORY_MIME_TYPE, type SkillEntry } from './schemas.js';

/** A directory of a skill as the server shows it now, set against the entry the host holds. */
export interface SkillDirectory {
  /** The directory read. */
  readonly uri: string;
  /**
   * Children the entry accounts for: files it lists and subdirectories holding files
   * it lists (for a `"dynamic"` skill, every direct child: there is no list to check
   * against). Only these are the skill's, under this entry; each comes once.
   */
  readonly children: readonly Resource[];
  /**
   * Children the entry does not list: the skill changed after the entry was fetched.
   * Neither read them nor show them as the skill's; refresh the entry with `getSkill`
   * (a changed file set revokes any approval bound to the old one). Here too is
   * whatever the server listed that is not a direct child of `uri` at all (another
   * skill's file, a `file:` or `https:` URI, a grandchild), for any skill.
   */
  readonly unlisted: readonly Resource[];
  /** What the entry lists directly in this directory that the server no longer shows: a read of it will fail, and the same refresh applies. */
  readonly missing: readonly string[];
}

/**
 * A directory of a skill answered from its entry alone, with no request (SEP-2640,
 * Directory Reads and the Held Entry: the entry's `resources` is complete, so a
 * host acting on the skill may list `templates/` from it). Files come with the
 * entry's `size`, subdirectories as directory resources; `uri` is the skill's
 * root (its `SKILL.md` URI without `/SKILL.md`) or a directory under it, without
 * a trailing slash. Throws `SkillVerificationError` for a `"dynamic"` skill (no
 * list to answer from: use {@link readSkillDirectory}) and for a directory outside
 * the skill (`'unlisted'`).
 */
export function directoryFromEntry(entry: SkillEntry, uri: string): Resource[] {
  checkWithinSkill(entry, uri);
  if (entry.resources === 'dynamic') {
    throw new SkillVerificationError({
      skill: entry.uri,
      uri,
      reason: 'dynamic',
      message: 'the skill is dynamic: its entry lists no files',
    });
  }
  const prefix = `${uri}/`;
  const children = new Map<string, Resource>();
  for (const resource of entry.resources) {
    if (!resource.uri.startsWith(prefix)) continue;
    const rest = resource.uri.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash === -1) {
      children.set(resource.uri, { uri: resource.uri, name: rest, size: resource.size });
      continue;
    }
    const name = rest.slice(0, slash);
    const child = prefix + name;
    // A subdirectory is keyed with its trailing slash, so it never collides with a file of the same URI.
    if (!children.has(`${child}/`)) children.set(`${child}/`, { uri: child, name, mimeType: DIRECTORY_MIME_TYPE });
  }
  return [...children.values()];
}

/**
 * Reads a directory of a skill live (`resources/directory/read`, see
 * `readDirectory`) and sets it against the held entry (SEP-2640, Directory Reads
 * and the Held Entry): a child the entry does not list is reported in `unlisted`,
 * never as the skill's, since the directory result never extends the entry; what
 * the entry lists there but the server no longer shows is in `missing`. For a
 * `"dynamic"` skill the live view is the only one, and every direct child is the
 * skill's (with no integrity: there are no digests). Whatever the server lists
 * that is not a direct child of `uri` is `unlisted` for any skill, and a child
 * listed twice counts once. A directory outside the skill
 * is refused with `SkillVerificationError` (`'unlisted'`) before anything is sent.
 */
export async function readSkillDirectory(
  client: Client,
  entry: SkillEntry,
  uri: string,
  options?: ReadDirectoryOptions,
): Promise<SkillDirectory> {
  checkWithinSkill(entry, uri);
  const { children: live, strays } = directChildren(uri, await listDirectory(client, uri, options));
  if (entry.resources === 'dynamic') return { uri, children: live, unlisted: strays, missing: [] };
  const expected = directoryFromEntry(entry, uri);
  const listed = new Set(expected.map(childKey));
  const shown = new Set(live.map(childKey));
  return {
    uri,
    children: live.filter((child) => listed.has(childKey(child))),
    unlisted: [...live.filter((child) => !listed.has(childKey(child))), ...strays],
    missing: expected.filter((child) => !shown.has(childKey(child))).map((child) => child.uri),
  };
}

/**
 * The skill's root is the directory of its `SKILL.md`; only it and directories under it
 * belong to the skill. Empty, `.` and `..` segments are refused: the URI is compared as
 * written, so it must not be able to climb out of the root or name one directory two ways.
 */
function checkWithinSkill(entry: SkillEntry, uri: string): void {
  const root = entry.uri.slice(0, entry.uri.lastIndexOf('/'));
  const within =
    uri === root ||
    (uri.startsWith(`${root}/`) &&
      uri
        .slice(root.length + 1)
        .split('/')
        .every((segment) => segment !== '' && segment !== '.' && segment !== '..'));
  if (within) return;
  throw new SkillVerificationError({
    skill: entry.uri,
    uri,
    reason: 'unlisted',
    message: `not a directory of the skill (its root is ${root}, written without a trailing slash)`,
  });
}
