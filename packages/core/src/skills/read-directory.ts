import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { type Resource, ResourceSchema } from '../protocol/resources.js';
import { requireDirectoryRead } from './extension.js';
import { collectEntries } from './paged-entries.js';
import { DIRECTORY_MIME_TYPE, ReadDirectoryPageSchema } from './schemas.js';

/** Options of {@link readDirectory}. */
export interface ReadDirectoryOptions extends CallOptions {
  /** Pages followed before the read fails with a `LimitError`, so a looping cursor cannot hold the call (default 100). */
  readonly maxPages?: number;
  /** Entries gathered over all pages before the read fails with a `LimitError`, counted as the server sent them (default 10000). */
  readonly maxListItems?: number;
  /**
   * Characters of JSON text read over all pages before the read fails with a `LimitError`, close to their
   * bytes (default 16777216: 16 MiB), as `limits.maxListBytes` counts them on a Client.
   */
  readonly maxListBytes?: number;
  /**
   * Told about each child left out, with why: not a resource (`uri` and `name` strings at least),
   * not a direct child of the directory read, or listed twice.
   */
  readonly onInvalidEntry?: (entry: unknown, reason: string) => void;
}

/**
 * The direct children of a directory resource (`resources/directory/read`,
 * SEP-2640 Reading Directories), following `nextCursor` to the end: files with
 * their resource metadata, subdirectories as directory resources (see
 * {@link isDirectoryResource}); descend by reading a child directory in turn.
 * The method is not skill-specific: any directory the server serves may be read.
 * Throws `CapabilityError` before sending anything unless the server declared
 * `directoryRead: true`; a URI that is not a directory is an `RpcError` (-32602).
 *
 * Only what lies directly under `uri` is taken, once: a server listing another
 * skill's file, a `file:` or `https:` URI, a grandchild or a dot segment as a
 * child must not lead the host there (see `directChildren`); each such
 * entry goes to `onInvalidEntry` instead.
 *
 * A directory read is a live view, not part of a skill's entry: while acting on
 * a skill with a listed `resources` array, compare it with the entry
 * (`readSkillDirectory`) rather than read what it lists.
 */
export async function readDirectory(
  client: Client,
  uri: string,
  options: ReadDirectoryOptions = {},
): Promise<Resource[]> {
  const { children, strays, repeats } = directChildren(uri, await listDirectory(client, uri, options));
  for (const stray of strays) options.onInvalidEntry?.(stray, `not a direct child of ${uri}`);
  for (const repeat of repeats) options.onInvalidEntry?.(repeat, 'listed twice');
  return children;
}

/** Every resource a directory read lists, as the server lists it (each checked to be a resource, nothing more). */
export async function listDirectory(
  client: Client,
  uri: string,
  options: ReadDirectoryOptions = {},
): Promise<Resource[]> {
  requireDirectoryRead(client);
  return collectEntries(
    client,
    'resources/directory/read',
    { uri },
    ReadDirectoryPageSchema,
    (page) => page.resources,
    ResourceSchema,
    options,
  );
}

/** Whether a resource is a directory (`mimeType: "inode/directory"`), to be read with {@link readDirectory}. */
export function isDirectoryResource(resource: Pick<Resource, 'mimeType'>): boolean {
  return resource.mimeType === DIRECTORY_MIME_TYPE;
}

/** What a directory read listed, sorted by {@link directChildren}. */
export interface SortedChildren {
  /** The direct children, each once, in the server's order. */
  readonly children: Resource[];
  /** Entries that do not lie directly under the directory. */
  readonly strays: Resource[];
  /** Later listings of a child already taken. */
  readonly repeats: Resource[];
}

/**
 * Sorts what a read of the directory `uri` listed: a direct child is written as
 * `uri`, a slash and one segment that is not empty, `.` or `..` (compared as
 * written, so it can neither climb out nor name one child two ways); a file and a
 * directory at one URI are different children, but each is taken once.
 */
export function directChildren(uri: string, listed: readonly Resource[]): SortedChildren {
  const prefix = uri.endsWith('/') ? uri : `${uri}/`;
  const sorted: SortedChildren = { children: [], strays: [], repeats: [] };
  const seen = new Set<string>();
  for (const resource of listed) {
    const name = resource.uri.startsWith(prefix) ? resource.uri.slice(prefix.length) : '';
    if (name === '' || name === '.' || name === '..' || name.includes('/')) sorted.strays.push(resource);
    else if (seen.has(childKey(resource))) sorted.repeats.push(resource);
    else {
      seen.add(childKey(resource));
      sorted.children.push(resource);
    }
  }
  return sorted;
}

/** A child's URI, with a trailing slash for a directory: a file and a directory at one URI are different children. */
export const childKey = (child: Resource): string => (isDirectoryResource(child) ? `${child.uri}/` : child.uri);
