import type { Client } from '../client/client.js';
import { CapabilityError } from '../errors/capability-error.js';

/**
 * The Skills extension's identifier (SEP-2640). A client that uses skills
 * declares it, as SEP-2133 extension negotiation has both sides do:
 *
 * ```ts
 * new Client(transport, { capabilities: { extensions: { [SKILLS_EXTENSION]: {} } } });
 * ```
 */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The server's settings object for the extension, when it declared one. */
function skillsSettings(client: Client): Readonly<Record<string, unknown>> | undefined {
  const settings = client.serverCapabilities?.extensions?.[SKILLS_EXTENSION];
  return typeof settings === 'object' && settings !== null
    ? (settings as Readonly<Record<string, unknown>>)
    : undefined;
}

/** Whether the connected server declared the Skills extension (and so serves `skills/list` and `skills/get`). */
export function serverHasSkills(client: Client): boolean {
  return skillsSettings(client) !== undefined;
}

/**
 * Whether the connected server declared the extension with `directoryRead: true`,
 * and so serves `resources/directory/read` (SEP-2640, Capability Negotiation:
 * the setting defaults to false, and clients MUST NOT call the method otherwise).
 */
export function serverReadsDirectories(client: Client): boolean {
  return skillsSettings(client)?.directoryRead === true;
}

/** Clients call the skills methods only after seeing the declaration (SEP-2640, Backward Compatibility). */
export function requireSkills(client: Client, method: string): void {
  if (!serverHasSkills(client)) throw new CapabilityError(`extensions.${SKILLS_EXTENSION}`, method);
}

/** `resources/directory/read` only after the server declared `directoryRead: true`. */
export function requireDirectoryRead(client: Client): void {
  if (!serverReadsDirectories(client)) {
    throw new CapabilityError(`extensions.${SKILLS_EXTENSION}.directoryRead`, 'resources/directory/read');
  }
}
