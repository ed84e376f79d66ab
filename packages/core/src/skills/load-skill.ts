import type { Client } from '../client/client.js';
import type { CallOptions } from '../client/options.js';
import { LimitError } from '../errors/limit-error.js';
import { SkillVerificationError, type SkillVerificationReason } from '../errors/skill-verification-error.js';
import { messageOf } from '../util/message-of.js';
import { parseSkillMarkdown } from './frontmatter.js';
import type { SkillEntry, SkillFrontmatter, SkillResource } from './schemas.js';
import { bytesOf, frontmatterDifferences, sha256Digest } from './verify.js';

/** One verified file of a skill: its bytes matched the entry's size and digest. */
export interface SkillFile {
  /** The file's URI. */
  readonly uri: string;
  /** Its bytes, as verified against the entry. */
  readonly bytes: Uint8Array;
  /** Set when the server sent the file as text. */
  readonly text?: string;
  /** Its MIME type, when the server gave one. */
  readonly mimeType?: string;
}

/** A skill whose `SKILL.md` (and, unless asked otherwise, every listed file) was read and verified. */
export interface LoadedSkill {
  /** The entry the skill was loaded from and checked against. */
  readonly entry: SkillEntry;
  /** The frontmatter parsed from `SKILL.md`, equal field by field to the entry's. */
  readonly frontmatter: SkillFrontmatter;
  /** `SKILL.md` first, then the supporting files in the entry's order. */
  readonly files: readonly SkillFile[];
}

/** Options of {@link loadSkill}. */
export interface LoadSkillOptions extends CallOptions {
  /**
   * Read every listed file now (default), or `false` for `SKILL.md` only: the
   * others are then read when needed, with {@link readSkillFile}.
   */
  readonly supportingFiles?: boolean;
  /**
   * Refuse a skill whose files to read add up to more bytes, with a `LimitError` and before reading any
   * (default 16 MiB, SEP-2640's publication limit).
   */
  readonly maxBytes?: number;
}

export const DEFAULT_MAX_SKILL_BYTES = 16 * 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Loads a skill from its entry (SEP-2640, Integrity and verification): reads
 * `SKILL.md` with `resources/read`, checks its size and SHA-256 digest, parses
 * its YAML frontmatter and compares it field by field with the entry's; only
 * then reads the supporting files, each checked the same way. Any mismatch
 * throws `SkillVerificationError` and nothing read is returned: unverified
 * content is never used. `"dynamic"` skills carry no digests and are refused;
 * a skill listed at more than `maxBytes` is refused with a `LimitError`.
 */
export async function loadSkill(
  client: Client,
  entry: SkillEntry,
  options: LoadSkillOptions = {},
): Promise<LoadedSkill> {
  const { supportingFiles = true, maxBytes = DEFAULT_MAX_SKILL_BYTES, ...call } = options;
  const resources = listedResources(entry, entry.uri);
  const manifest = resources.find((resource) => resource.uri === entry.uri);
  if (!manifest) throw failure(entry, entry.uri, 'unlisted', "SKILL.md is not in the entry's resources");
  const toRead = supportingFiles ? [manifest, ...resources.filter((resource) => resource !== manifest)] : [manifest];
  const total = toRead.reduce((sum, resource) => sum + resource.size, 0);
  if (total > maxBytes) {
    throw new LimitError('maxBytes', maxBytes, `skill ${entry.uri}: its files to read are listed at ${total} bytes`);
  }

  const skillMd = await readSkillFile(client, entry, entry.uri, call);
  const frontmatter = verifyFrontmatter(entry, skillMd);
  const files = [skillMd];
  for (const resource of toRead.slice(1)) files.push(await readSkillFile(client, entry, resource.uri, call));
  return { entry, frontmatter, files };
}

/**
 * Reads one file of a skill and verifies it against the entry: the URI must be
 * listed (an unlisted file is a change to the skill), the answer one body for
 * that URI, its byte length the entry's `size` and its SHA-256 the `digest`.
 * Throws `SkillVerificationError` otherwise, without the content.
 */
export async function readSkillFile(
  client: Client,
  entry: SkillEntry,
  uri: string,
  options?: CallOptions,
): Promise<SkillFile> {
  const listed = listedResources(entry, uri).find((resource) => resource.uri === uri);
  if (!listed) throw failure(entry, uri, 'unlisted', "not in the entry's resources");
  const { contents } = await client.readResource(uri, options);
  const [content] = contents;
  if (!content || contents.length !== 1 || content.uri !== uri) {
    throw failure(entry, uri, 'contents', `expected one body for ${uri}, got ${contents.length}`);
  }
  const bytes = bytesOf(content);
  if (bytes.byteLength !== listed.size) {
    throw failure(entry, uri, 'size', `size ${bytes.byteLength}, the entry says ${listed.size}`, {
      expected: listed.size,
      actual: bytes.byteLength,
    });
  }
  const digest = await sha256Digest(bytes);
  if (digest !== listed.digest) {
    throw failure(entry, uri, 'digest', 'digest mismatch', { expected: listed.digest, actual: digest });
  }
  return {
    uri,
    bytes,
    ...(content.text !== undefined && { text: content.text }),
    ...(content.mimeType !== undefined && { mimeType: content.mimeType }),
  };
}

function listedResources(entry: SkillEntry, uri: string): readonly SkillResource[] {
  if (entry.resources === 'dynamic') throw failure(entry, uri, 'dynamic', 'the skill is dynamic: no digests to verify');
  return entry.resources;
}

/** The frontmatter of a verified SKILL.md, which must equal the entry's field by field. */
function verifyFrontmatter(entry: SkillEntry, skillMd: SkillFile): SkillFrontmatter {
  let parsed: ReturnType<typeof parseSkillMarkdown>;
  try {
    parsed = parseSkillMarkdown(skillMd.text ?? decoder.decode(skillMd.bytes));
  } catch (error) {
    const reason = messageOf(error);
    throw failure(entry, skillMd.uri, 'frontmatter', `unreadable frontmatter: ${reason}`, {}, { cause: error });
  }
  const fields = frontmatterDifferences(parsed.frontmatter, entry.frontmatter);
  if (fields.length > 0) {
    throw failure(entry, skillMd.uri, 'frontmatter', `frontmatter differs from the entry in ${fields.join(', ')}`, {
      fields,
    });
  }
  // Equal to the entry's, whose name and description are strings.
  return parsed.frontmatter as SkillFrontmatter;
}

function failure(
  entry: SkillEntry,
  uri: string,
  reason: SkillVerificationReason,
  message: string,
  details: { expected?: string | number; actual?: string | number; fields?: readonly string[] } = {},
  options?: ErrorOptions,
): SkillVerificationError {
  return new SkillVerificationError({ skill: entry.uri, uri, reason, message, ...details }, options);
}
