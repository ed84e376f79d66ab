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

/** Whether the connected server declared the Skills extension (and so serves `skills/list` and `skills/get`). */
export function serverHasSkills(client: Client): boolean {
  const settings = client.serverCapabilities?.extensions?.[SKILLS_EXTENSION];
  return typeof settings === 'object' && settings !== null;
}

/** Clients call the skills methods only after seeing the declaration (SEP-2640, Backward Compatibility). */
export function requireSkills(client: Client, method: string): void {
  if (!serverHasSkills(client)) throw new CapabilityError(`extensions.${SKILLS_EXTENSION}`, method);
}
