/**
 * @mcp/core/skills: the client side of the Skills extension (SEP-2640,
 * `io.modelcontextprotocol/skills`). List skills without reading them, load one
 * when it is needed, and use its files only once they match the entry. A
 * server that declares `directoryRead: true` also lists directories
 * (`readDirectory`); while acting on a skill, `readSkillDirectory` sets such a
 * live listing against the entry, and `directoryFromEntry` answers from the
 * entry alone.
 *
 * ```ts
 * const client = new Client(transport, { capabilities: { extensions: { [SKILLS_EXTENSION]: {} } } });
 * await client.connect();
 * if (serverHasSkills(client)) {
 *   const skills = await listSkills(client);
 *   const skill = await loadSkill(client, skills[0]); // throws SkillVerificationError on any mismatch
 * }
 * ```
 *
 * @module @mcp/core/skills
 */
export { SkillVerificationError, type SkillVerificationReason } from '../errors/skill-verification-error.js';
export { SKILLS_EXTENSION, serverHasSkills, serverReadsDirectories } from './extension.js';
export { type FrontmatterValue, type ParsedSkillMarkdown, parseSkillMarkdown } from './frontmatter.js';
export { getSkill } from './get-skill.js';
export { type ListSkillsOptions, listSkills } from './list-skills.js';
export { type LoadedSkill, type LoadSkillOptions, loadSkill, readSkillFile, type SkillFile } from './load-skill.js';
export { isDirectoryResource, type ReadDirectoryOptions, readDirectory } from './read-directory.js';
export { DIRECTORY_MIME_TYPE, type SkillEntry, type SkillFrontmatter, type SkillResource } from './schemas.js';
export { directoryFromEntry, readSkillDirectory, type SkillDirectory } from './skill-directory.js';
