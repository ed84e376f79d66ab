import { describe, expect, it } from 'vitest';
import { CapabilityError } from '../../src/index.js';
import { getSkill, listSkills } from '../../src/skills/index.js';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

/** The Skills extension (SEP-2640, Backward Compatibility): its methods only toward a server that declared it. */
describe('spec: skills extension', () => {
  it('sends no skills method to a server that did not declare io.modelcontextprotocol/skills', async () => {
    const { client, server } = await connected();
    await expect(listSkills(client)).rejects.toBeInstanceOf(CapabilityError);
    await expect(getSkill(client, 'skill://pdf-processing/SKILL.md')).rejects.toBeInstanceOf(CapabilityError);
    await server.assertNoMessage(50);
  });
});
