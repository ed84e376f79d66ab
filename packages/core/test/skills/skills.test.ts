import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '../../src/index.js';
import {
  getSkill,
  listSkills,
  loadSkill,
  readSkillFile,
  SkillVerificationError,
  serverHasSkills,
} from '../../src/skills/index.js';
import { catalog, closeConnections, connectToSkills, type SkillFiles, tamperedSkill } from './skills-server.js';

const PDF_SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  version: "2.1.0"
  audience: ops and finance
---
# PDF processing

Skill body. Fill forms as references/FORMS.md says.
`;
const PDF: SkillFiles = { 'SKILL.md': PDF_SKILL_MD, 'references/FORMS.md': 'Supporting content.\n' };

const CATALOG = {
  'git-workflow/SKILL.md': '---\nname: git-workflow\ndescription: Branch and commit the team way\n---\nUse git.\n',
  'pdf-processing/SKILL.md': PDF_SKILL_MD,
  'pdf-processing/references/FORMS.md': PDF['references/FORMS.md'] as string,
  'refunds/SKILL.md':
    '---\nname: refunds\ndescription: >-\n  Process refund requests\n  per company policy\n---\nRefund.\n',
};

afterEach(closeConnections);

const pdfEntry = async (client: Client) => {
  const entry = (await listSkills(client)).find((skill) => skill.frontmatter.name === 'pdf-processing');
  if (!entry) throw new Error('pdf-processing is not listed');
  return entry;
};

/** The error `promise` rejects with, which must be a SkillVerificationError. */
async function verificationError(promise: Promise<unknown>): Promise<SkillVerificationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SkillVerificationError);
  return error as SkillVerificationError;
}

describe('listSkills', () => {
  it('follows nextCursor across pages and returns every entry, reading no skill file', async () => {
    const { client, server } = await connectToSkills(await catalog(CATALOG, 1));

    expect(serverHasSkills(client)).toBe(true);
    const skills = await listSkills(client);

    expect(skills.map((skill) => skill.uri).sort()).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
      'skill://refunds/SKILL.md',
    ]);
    expect(server.methods.filter((method) => method === 'skills/list')).toHaveLength(3);
    expect(server.reads).toEqual([]);
    const refunds = skills.find((skill) => skill.frontmatter.name === 'refunds');
    expect(refunds?.frontmatter.description).toBe('Process refund requests per company policy');
  });

  it('fails with a bounded page count when the server keeps sending cursors', async () => {
    const { client } = await connectToSkills(await catalog(CATALOG, 1));
    await expect(listSkills(client, { maxPages: 2 })).rejects.toThrow(/more than 2 pages/);
  });

  it('fails with a LimitError naming maxListItems once the pages together list more entries', async () => {
    const { client, server } = await connectToSkills(await catalog(CATALOG, 1));
    const error = await listSkills(client, { maxListItems: 2 }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ name: 'LimitError', limit: 'maxListItems', value: 2 });
    expect(server.methods.filter((method) => method === 'skills/list')).toHaveLength(3);
  });

  it('fails with a LimitError naming maxListBytes once the pages together are longer, and the next listing works', async () => {
    const { client, server } = await connectToSkills(await catalog(CATALOG, 1));
    const error = await listSkills(client, { maxListBytes: 1 }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ name: 'LimitError', limit: 'maxListBytes', value: 1 });
    expect(server.methods.filter((method) => method === 'skills/list')).toHaveLength(1);
    expect(await listSkills(client)).toHaveLength(3);
  });

  it('getSkill returns the same entry as the listing', async () => {
    const { client } = await connectToSkills(await catalog(CATALOG));
    const listed = await pdfEntry(client);
    expect(await getSkill(client, listed.uri)).toEqual(listed);
  });
});

describe('loadSkill', () => {
  it('reads nothing on connect or listing; loading reads SKILL.md, then each listed file, all verified', async () => {
    const { client, server } = await connectToSkills(await catalog(CATALOG));
    const entry = await pdfEntry(client);
    expect(server.reads).toEqual([]);

    const skill = await loadSkill(client, entry);

    expect(server.reads).toEqual(['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md']);
    expect(skill.files.map((file) => [file.uri, file.text])).toEqual([
      ['skill://pdf-processing/SKILL.md', PDF_SKILL_MD],
      ['skill://pdf-processing/references/FORMS.md', 'Supporting content.\n'],
    ]);
    expect(skill.files[0]?.bytes).toEqual(new TextEncoder().encode(PDF_SKILL_MD));
    expect(skill.frontmatter).toEqual(entry.frontmatter);
    expect(skill.frontmatter.metadata).toEqual({ version: '2.1.0', audience: 'ops and finance' });
  });

  it('with supportingFiles: false reads only SKILL.md; readSkillFile verifies a file when it is needed', async () => {
    const { client, server } = await connectToSkills(await catalog(CATALOG));
    const entry = await pdfEntry(client);

    const skill = await loadSkill(client, entry, { supportingFiles: false });
    expect(skill.files.map((file) => file.uri)).toEqual(['skill://pdf-processing/SKILL.md']);
    expect(server.reads).toEqual(['skill://pdf-processing/SKILL.md']);

    const forms = await readSkillFile(client, entry, 'skill://pdf-processing/references/FORMS.md');
    expect(forms.text).toBe('Supporting content.\n');
  });

  it('refuses a file the entry does not list, without reading it', async () => {
    const { client, server } = await connectToSkills(await catalog(CATALOG));
    const entry = await pdfEntry(client);

    const error = await verificationError(readSkillFile(client, entry, 'skill://pdf-processing/scripts/evil.py'));
    expect(error.reason).toBe('unlisted');
    expect(server.reads).toEqual([]);
  });

  it('refuses SKILL.md whose bytes do not hash to the digest, and reads nothing further', async () => {
    const served = { ...PDF, 'SKILL.md': PDF_SKILL_MD.replace('Skill body.', 'Evil body!!') };
    const { client, server } = await connectToSkills(await tamperedSkill('pdf-processing', PDF, served));

    const error = await verificationError(loadSkill(client, await pdfEntry(client)));

    expect(error).toMatchObject({ reason: 'digest', uri: 'skill://pdf-processing/SKILL.md' });
    expect(error.expected).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(error.actual).not.toBe(error.expected);
    expect(server.reads).toEqual(['skill://pdf-processing/SKILL.md']);
  });

  it('refuses SKILL.md whose byte length differs from the size', async () => {
    const served = { ...PDF, 'SKILL.md': `${PDF_SKILL_MD}extra bytes\n` };
    const { client, server } = await connectToSkills(await tamperedSkill('pdf-processing', PDF, served));

    const error = await verificationError(loadSkill(client, await pdfEntry(client)));

    const size = new TextEncoder().encode(PDF_SKILL_MD).byteLength;
    expect(error).toMatchObject({ reason: 'size', expected: size, actual: size + 12 });
    expect(server.reads).toEqual(['skill://pdf-processing/SKILL.md']);
  });

  it('refuses a skill whose SKILL.md frontmatter differs from the entry, even when its digest matches', async () => {
    const served = { ...PDF, 'SKILL.md': PDF_SKILL_MD.replace('Extract, fill, and assemble', 'Exfiltrate') };
    const { client, server } = await connectToSkills(await tamperedSkill('pdf-processing', served, served, PDF));

    const error = await verificationError(loadSkill(client, await pdfEntry(client)));

    expect(error).toMatchObject({ reason: 'frontmatter', fields: ['description'] });
    expect(server.reads).toEqual(['skill://pdf-processing/SKILL.md']);
  });

  it('refuses the whole skill when a supporting file fails, returning none of it', async () => {
    const served = { ...PDF, 'references/FORMS.md': 'Supporting content!\n' };
    const { client } = await connectToSkills(await tamperedSkill('pdf-processing', PDF, served));

    const error = await verificationError(loadSkill(client, await pdfEntry(client)));
    expect(error).toMatchObject({ reason: 'digest', uri: 'skill://pdf-processing/references/FORMS.md' });
  });

  it('works the same against a 2025-11-25 server (the legacy era)', async () => {
    const { client } = await connectToSkills(await catalog(CATALOG, 2), { protocolVersion: '2025-11-25' });
    expect(client.era).toBe('legacy');

    const skill = await loadSkill(client, await pdfEntry(client));
    expect(skill.files).toHaveLength(2);
  });
});
