import * as v from 'valibot';
import { isJsonObject, JsonObjectSchema } from '../protocol/json.js';

/** `sha256:` and 64 lowercase hex digits: the only digest form SEP-2640 defines (Integrity and verification). */
export const SkillDigestSchema = v.pipe(
  v.string(),
  v.regex(/^sha256:[0-9a-f]{64}$/, 'Invalid digest: expected sha256:<64 lowercase hex>'),
);

/** One file of a skill, with what its raw bytes must hash to and measure (SEP-2640, Resources). */
export const SkillResourceSchema = v.looseObject({
  uri: v.string(),
  digest: SkillDigestSchema,
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** One file of a skill, with what its raw bytes must hash to (`digest`) and measure (`size`). */
export type SkillResource = v.InferOutput<typeof SkillResourceSchema>;

/** Frontmatter fields by name; `name` and `description` are always strings. */
export type SkillFrontmatter = { readonly name: string; readonly description: string } & Readonly<
  Record<string, unknown>
>;

/**
 * The entry's copy of the `SKILL.md` YAML frontmatter, as JSON: `name` and
 * `description` always, every other field the author wrote passed through.
 */
export const SkillFrontmatterSchema = v.custom<SkillFrontmatter>(
  (value) => isJsonObject(value) && typeof value.name === 'string' && typeof value.description === 'string',
  'Invalid frontmatter: expected an object with string name and description',
);

/**
 * A skill as `skills/list` and `skills/get` describe it: the `SKILL.md` URI, the
 * frontmatter, and every file with its digest and size — or `"dynamic"` for a
 * generated skill that publishes no digests (SEP-2640, Enumeration via skills/list).
 */
export const SkillEntrySchema = v.looseObject({
  uri: v.string(),
  frontmatter: SkillFrontmatterSchema,
  resources: v.union([v.array(SkillResourceSchema), v.literal('dynamic')]),
  _meta: v.optional(JsonObjectSchema),
});

/** A validated skill entry. */
export type SkillEntry = v.InferOutput<typeof SkillEntrySchema>;

/** One `skills/list` page; entries are checked one by one, so one bad entry does not hide the rest. */
export const ListSkillsPageSchema = v.looseObject({
  skills: v.array(v.unknown()),
  nextCursor: v.optional(v.string()),
});

/** The `skills/get` result. */
export const GetSkillResultSchema = v.looseObject({ skill: SkillEntrySchema });

/** The `mimeType` of a directory resource (SEP-2640, Directory Resources). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/**
 * One `resources/directory/read` page: the directory's direct children, checked one by
 * one against `ResourceSchema`, so one bad child does not hide the rest.
 */
export const ReadDirectoryPageSchema = v.looseObject({
  resources: v.array(v.unknown()),
  nextCursor: v.optional(v.string()),
});
