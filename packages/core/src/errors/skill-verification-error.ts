import { McpError } from './mcp-error.js';

/**
 * Why a skill was refused: its bytes differ from the entry's `digest` or `size`,
 * its `SKILL.md` frontmatter differs from the entry's, its `resources/read`
 * answer is not one body for the URI asked, the file is not listed in the entry,
 * or the skill is `"dynamic"` (no digests to check). `'limit'` is no longer
 * given: a skill larger than `loadSkill`'s `maxBytes` is a `LimitError`.
 */
export type SkillVerificationReason = 'digest' | 'size' | 'frontmatter' | 'contents' | 'unlisted' | 'dynamic' | 'limit';

/**
 * A skill's content is not what its `skills/list` / `skills/get` entry promised
 * (SEP-2640, Integrity and verification). The content is never handed out with
 * this error: the host MUST NOT use it. Recover by fetching the entry again
 * (`getSkill`) and loading from the new one.
 */
export class SkillVerificationError extends McpError {
  override name = 'SkillVerificationError';
  /** The `SKILL.md` URI of the skill being loaded. */
  readonly skill: string;
  /** The file that failed. */
  readonly uri: string;
  /** Which check failed. */
  readonly reason: SkillVerificationReason;
  /** What the entry promised, when one value says it (a digest, a size). */
  readonly expected?: string | number;
  /** What arrived instead. */
  readonly actual?: string | number;
  /** For `frontmatter`: the fields that differ between the file and the entry. */
  readonly fields?: readonly string[];

  /** `details`: which skill and file, why, and what was expected against what arrived. */
  constructor(
    details: {
      skill: string;
      uri: string;
      reason: SkillVerificationReason;
      message: string;
      expected?: string | number;
      actual?: string | number;
      fields?: readonly string[];
    },
    options?: ErrorOptions,
  ) {
    const where = details.uri === details.skill ? '' : `${details.uri}: `;
    super(`skill ${details.skill}: ${where}${details.message}`, options);
    this.skill = details.skill;
    this.uri = details.uri;
    this.reason = details.reason;
    if (details.expected !== undefined) this.expected = details.expected;
    if (details.actual !== undefined) this.actual = details.actual;
    if (details.fields !== undefined) this.fields = details.fields;
  }
}
