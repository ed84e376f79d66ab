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
  /** Told about each child left out for not being a resource (`uri` and `name` strings at least), with why. */
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
 * A directory read is a live view, not part of a skill's entry: while acting on
 * a skill with a listed `resources` array, compare it with the entry
 * (`readSkillDirectory`) rather than read what it lists.
 */
export async function readDirectory(
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
