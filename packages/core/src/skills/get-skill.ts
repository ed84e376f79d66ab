import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { resultParser } from '../client/results/decode.js';
import { requireSkills } from './extension.js';
import type { SkillEntry } from './schemas.js';
import { GetSkillResultSchema } from './schemas.js';

const parseGetSkill = resultParser('skills/get', GetSkillResultSchema, (result) => result.skill);

/**
 * The current entry of one skill by its `SKILL.md` URI (`skills/get`,
 * SEP-2640 Retrieval), listed or not: how a host refreshes a skill after a
 * verification failure, or verifies a skill it learned of outside the listing.
 * A URI the server does not serve as a skill is an `RpcError` (-32602).
 */
export async function getSkill(client: Client, uri: string, options?: CallOptions): Promise<SkillEntry> {
  requireSkills(client, 'skills/get');
  return parseGetSkill(await client.request('skills/get', { uri }, options));
}
