import { afterEach, describe, expect, it } from 'vitest';
import { CapabilityError, type Client, LimitError, ProtocolError, type Resource, RpcError } from '../../src/index.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import {
  DIRECTORY_MIME_TYPE,
  directoryFromEntry,
  getSkill,
  isDirectoryResource,
  listSkills,
  loadSkill,
  readDirectory,
  readSkillDirectory,
  readSkillFile,
  type SkillEntry,
  SkillVerificationError,
  serverHasSkills,
  serverReadsDirectories,
} from '../../src/skills/index.js';
import {
  catalog,
  closeConnections,
  connectToSkills,
  type DirectoryScript,
  type SkillFiles,
  skillWithDirectories,
  tamperedSkill,
} from './skills-server.js';

// SEP-2640, Reading Directories: `resources/directory/read`, gated by `directoryRead: true`.

const PDF: SkillFiles = {
  'SKILL.md': '---\nname: pdf-processing\ndescription: Fill PDF forms\n---\nPick a template from templates/.\n',
  'references/FORMS.md': 'Forms.\n',
  'templates/invoice.md': 'Invoice.\n',
  'templates/purchase-order.md': 'Purchase order.\n',
  'templates/regional/eu-invoice.md': 'EU invoice.\n',
};
const ROOT = 'skill://pdf-processing';
const TEMPLATES = `${ROOT}/templates`;

/** The PDF skill in the SDK's own catalog (which serves directories), `pageSize` children per page. */
const pdfCatalog = (pageSize = 100) =>
  catalog(Object.fromEntries(Object.entries(PDF).map(([path, text]) => [`pdf-processing/${path}`, text])), pageSize);

const file = (uri: string): Resource => ({ uri, name: uri.slice(uri.lastIndexOf('/') + 1), mimeType: 'text/markdown' });
const directory = (uri: string): Resource => ({
  uri,
  name: uri.slice(uri.lastIndexOf('/') + 1),
  mimeType: DIRECTORY_MIME_TYPE,
});

/** The templates directory as a server that changed after the listing shows it: credit-note added, purchase-order gone. */
const changedTemplates: DirectoryScript = (uri) =>
  uri === TEMPLATES
    ? {
        resources: [
          file(`${TEMPLATES}/credit-note.md`),
          file(`${TEMPLATES}/invoice.md`),
          directory(`${TEMPLATES}/regional`),
        ],
      }
    : undefined;

/**
 * What a hostile server may list as children of the templates directory besides its own
 * `invoice.md`: none lies directly under it, so none is a child.
 */
const STRAYS: readonly Resource[] = [
  file('skill://other-skill/SKILL.md'),
  file('file:///etc/passwd'),
  file('https://attacker.example/payload.md'),
  file(`${TEMPLATES}/regional/eu-invoice.md`),
  file(`${TEMPLATES}/../SKILL.md`),
  file(`${TEMPLATES}/./invoice.md`),
  file(`${TEMPLATES}/`),
  file(`${ROOT}/templates-v2/invoice.md`),
  directory(TEMPLATES),
];

/** The templates directory as a hostile server shows it: its one child twice, among every stray. */
const strayTemplates: DirectoryScript = (uri) =>
  uri === TEMPLATES
    ? { resources: [file(`${TEMPLATES}/invoice.md`), ...STRAYS, file(`${TEMPLATES}/invoice.md`)] }
    : undefined;

const theEntry = async (client: Client): Promise<SkillEntry> => {
  const [entry] = await listSkills(client);
  if (!entry) throw new Error('no skill listed');
  return entry;
};

/** The error `promise` rejects with, which must be an instance of `type`. */
async function rejection<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

const directoryReads = (methods: readonly string[]) =>
  methods.filter((method) => method === 'resources/directory/read').length;

afterEach(closeConnections);

describe('readDirectory', () => {
  it("lists a directory's direct children, subdirectories as directory resources, and descends on request", async () => {
    const { client } = await connectToSkills(await pdfCatalog());
    expect(serverReadsDirectories(client)).toBe(true);

    const templates = await readDirectory(client, TEMPLATES);

    expect(templates.map((child) => [child.uri, isDirectoryResource(child)])).toEqual([
      [`${TEMPLATES}/invoice.md`, false],
      [`${TEMPLATES}/purchase-order.md`, false],
      [`${TEMPLATES}/regional`, true],
    ]);
    expect(templates[0]).toMatchObject({ name: 'invoice.md', size: 9 });
    const regional = await readDirectory(client, `${TEMPLATES}/regional`);
    expect(regional.map((child) => child.uri)).toEqual([`${TEMPLATES}/regional/eu-invoice.md`]);
    const root = await readDirectory(client, ROOT);
    expect(root.map((child) => child.name)).toEqual(['SKILL.md', 'references', 'templates']);
  });

  it('follows nextCursor across pages', async () => {
    const { client, server } = await connectToSkills(await pdfCatalog(1));
    const templates = await readDirectory(client, TEMPLATES);
    expect(templates.map((child) => child.name)).toEqual(['invoice.md', 'purchase-order.md', 'regional']);
    expect(directoryReads(server.methods)).toBe(3);
  });

  it('works the same against a 2025-11-25 server (the legacy era)', async () => {
    const { client } = await connectToSkills(await pdfCatalog(2), { protocolVersion: '2025-11-25' });
    expect(client.era).toBe('legacy');
    expect(await readDirectory(client, TEMPLATES)).toHaveLength(3);
  });

  it('is never sent to a server that did not declare directoryRead: true (CapabilityError)', async () => {
    const { client, server } = await connectToSkills(await tamperedSkill('pdf-processing', PDF, PDF));
    expect(serverHasSkills(client)).toBe(true);
    expect(serverReadsDirectories(client)).toBe(false);

    const error = await rejection(readDirectory(client, TEMPLATES), CapabilityError);

    expect(error.capability).toBe('extensions.io.modelcontextprotocol/skills.directoryRead');
    expect(directoryReads(server.methods)).toBe(0);
  });

  it("surfaces the server's -32602 for a URI that is not a directory", async () => {
    const { client } = await connectToSkills(await pdfCatalog());
    const error = await rejection(readDirectory(client, `${ROOT}/SKILL.md`), RpcError);
    expect(error.code).toBe(ErrorCode.InvalidParams);
  });

  it('fails with LimitError past maxPages when the server keeps sending cursors (default 100)', async () => {
    const looping: DirectoryScript = () => ({ resources: [file(`${TEMPLATES}/invoice.md`)], nextCursor: 'again' });
    const { client, server } = await connectToSkills(await skillWithDirectories('pdf-processing', PDF, looping));

    const bounded = await rejection(readDirectory(client, TEMPLATES, { maxPages: 3 }), LimitError);
    expect(bounded).toMatchObject({ limit: 'maxPages', value: 3 });
    expect(directoryReads(server.methods)).toBe(3);

    const byDefault = await rejection(readDirectory(client, TEMPLATES), LimitError);
    expect(byDefault).toMatchObject({ limit: 'maxPages', value: 100 });
    expect(directoryReads(server.methods)).toBe(103);
  });

  it('leaves out each child that is not a resource and reports it, keeping the rest', async () => {
    const good = file(`${TEMPLATES}/invoice.md`);
    const bad = [
      null,
      'invoice.md',
      { uri: `${TEMPLATES}/x.md` },
      { uri: 7, name: 'x' },
      { uri: 'a', name: 'a', size: '9' },
    ];
    const { client } = await connectToSkills(
      await skillWithDirectories('pdf-processing', PDF, () => ({ resources: [bad[0], good, ...bad.slice(1)] })),
    );
    const reported: unknown[] = [];

    const children = await readDirectory(client, TEMPLATES, { onInvalidEntry: (entry) => reported.push(entry) });

    expect(children).toEqual([good]);
    expect(reported).toEqual(bad);
  });

  it('keeps only direct children, each once, and reports the rest: another skill, other schemes, a grandchild, dot segments', async () => {
    const { client } = await connectToSkills(await skillWithDirectories('pdf-processing', PDF, strayTemplates));
    const reported: [unknown, string][] = [];

    const children = await readDirectory(client, TEMPLATES, {
      onInvalidEntry: (entry, reason) => reported.push([entry, reason]),
    });

    expect(children).toEqual([file(`${TEMPLATES}/invoice.md`)]);
    expect(reported.map(([entry]) => entry)).toEqual([...STRAYS, file(`${TEMPLATES}/invoice.md`)]);
    expect(reported.map(([, reason]) => reason)).toEqual([
      ...STRAYS.map(() => `not a direct child of ${TEMPLATES}`),
      'listed twice',
    ]);
  });

  it.each([
    ['resources is not an array', { resources: { uri: 'a', name: 'a' } }],
    ['resources is missing', {}],
    ['nextCursor is not a string', { resources: [], nextCursor: 5 }],
  ])('rejects a page whose %s with a ProtocolError naming the method', async (_, page) => {
    const { client } = await connectToSkills(
      await skillWithDirectories('pdf-processing', PDF, () => page as ReturnType<DirectoryScript>),
    );
    const error = await rejection(readDirectory(client, TEMPLATES), ProtocolError);
    expect(error.message).toMatch(/^resources\/directory\/read: invalid result/);
    expect(error.data.issues.length).toBeGreaterThan(0);
  });
});

describe('directoryFromEntry', () => {
  it("answers a skill's directory from its entry alone, sending nothing", async () => {
    const { client, server } = await connectToSkills(await pdfCatalog());
    const entry = await theEntry(client);
    const sent = server.methods.length;

    expect(directoryFromEntry(entry, TEMPLATES)).toEqual([
      { uri: `${TEMPLATES}/invoice.md`, name: 'invoice.md', size: 9 },
      { uri: `${TEMPLATES}/purchase-order.md`, name: 'purchase-order.md', size: 16 },
      { uri: `${TEMPLATES}/regional`, name: 'regional', mimeType: DIRECTORY_MIME_TYPE },
    ]);
    expect(directoryFromEntry(entry, ROOT).map((child) => child.name)).toEqual(['SKILL.md', 'references', 'templates']);
    expect(directoryFromEntry(entry, `${ROOT}/scripts`)).toEqual([]);
    expect(server.methods.length).toBe(sent);
  });

  it('refuses a dynamic skill, whose entry lists no files', async () => {
    const { client } = await connectToSkills(
      await skillWithDirectories('pdf-processing', PDF, () => undefined, { dynamic: true }),
    );
    const entry = await theEntry(client);
    const error = await rejection(
      Promise.resolve().then(() => directoryFromEntry(entry, ROOT)),
      SkillVerificationError,
    );
    expect(error.reason).toBe('dynamic');
  });
});

describe('readSkillDirectory', () => {
  it('agrees with the entry when the server has not changed the skill', async () => {
    const { client } = await connectToSkills(await pdfCatalog());
    const entry = await theEntry(client);

    const templates = await readSkillDirectory(client, entry, TEMPLATES);

    expect(templates.children.map((child) => child.name)).toEqual(['invoice.md', 'purchase-order.md', 'regional']);
    expect(templates).toMatchObject({ uri: TEMPLATES, unlisted: [], missing: [] });
  });

  it('never counts a child the entry does not list as the skill’s, and reports what the entry lists that is gone', async () => {
    const { client, server } = await connectToSkills(
      await skillWithDirectories('pdf-processing', PDF, changedTemplates),
    );
    const entry = await theEntry(client);

    const templates = await readSkillDirectory(client, entry, TEMPLATES);

    expect(templates.children.map((child) => child.uri)).toEqual([`${TEMPLATES}/invoice.md`, `${TEMPLATES}/regional`]);
    expect(templates.unlisted.map((child) => child.uri)).toEqual([`${TEMPLATES}/credit-note.md`]);
    expect(templates.missing).toEqual([`${TEMPLATES}/purchase-order.md`]);
    // The new file stays unreadable under the held entry: the directory read does not extend it.
    const error = await rejection(readSkillFile(client, entry, `${TEMPLATES}/credit-note.md`), SkillVerificationError);
    expect(error.reason).toBe('unlisted');
    expect(server.reads).toEqual([]);
  });

  it('counts a child whose kind differs from the entry (a directory where it lists a file) as unlisted', async () => {
    const swapped: DirectoryScript = () => ({
      resources: [
        directory(`${TEMPLATES}/invoice.md`),
        file(`${TEMPLATES}/purchase-order.md`),
        file(`${TEMPLATES}/regional`),
      ],
    });
    const { client } = await connectToSkills(await skillWithDirectories('pdf-processing', PDF, swapped));

    const templates = await readSkillDirectory(client, await theEntry(client), TEMPLATES);

    expect(templates.children.map((child) => child.name)).toEqual(['purchase-order.md']);
    expect(templates.unlisted.map((child) => child.name)).toEqual(['invoice.md', 'regional']);
    expect(templates.missing).toEqual([`${TEMPLATES}/invoice.md`, `${TEMPLATES}/regional`]);
  });

  it('takes every child of a dynamic skill as its own: the live view is the only one', async () => {
    const { client } = await connectToSkills(
      await skillWithDirectories('pdf-processing', PDF, changedTemplates, { dynamic: true }),
    );
    const entry = await theEntry(client);
    expect(entry.resources).toBe('dynamic');

    const templates = await readSkillDirectory(client, entry, TEMPLATES);

    expect(templates.children).toHaveLength(3);
    expect(templates).toMatchObject({ unlisted: [], missing: [] });
  });

  it('never takes a stray child as a dynamic skill’s own: only direct children, each once, the rest unlisted', async () => {
    const { client } = await connectToSkills(
      await skillWithDirectories('pdf-processing', PDF, strayTemplates, { dynamic: true }),
    );

    const templates = await readSkillDirectory(client, await theEntry(client), TEMPLATES);

    expect(templates.children).toEqual([file(`${TEMPLATES}/invoice.md`)]);
    expect(templates.unlisted).toEqual(STRAYS);
    expect(templates.missing).toEqual([]);
  });

  it('counts a stray child of a listed skill as unlisted and a repeated child once', async () => {
    const { client } = await connectToSkills(await skillWithDirectories('pdf-processing', PDF, strayTemplates));

    const templates = await readSkillDirectory(client, await theEntry(client), TEMPLATES);

    expect(templates.children).toEqual([file(`${TEMPLATES}/invoice.md`)]);
    expect(templates.unlisted).toEqual(STRAYS);
    expect(templates.missing).toEqual([`${TEMPLATES}/purchase-order.md`, `${TEMPLATES}/regional`]);
  });

  it.each([
    ['another skill', 'skill://git-workflow'],
    ['a sibling sharing its name as a prefix', 'skill://pdf-processing-v2'],
    ['a climb out of the root', `${ROOT}/templates/../../git-workflow`],
    ['a trailing slash', `${TEMPLATES}/`],
    ['an empty segment', `${ROOT}//templates`],
    ['the SKILL.md URI’s parent written with a dot', `${ROOT}/./templates`],
  ])('refuses %s before sending anything', async (_, uri) => {
    const { client, server } = await connectToSkills(await pdfCatalog());
    const entry = await getSkill(client, `${ROOT}/SKILL.md`);

    const error = await rejection(readSkillDirectory(client, entry, uri), SkillVerificationError);

    expect(error).toMatchObject({ reason: 'unlisted', uri, skill: entry.uri });
    expect(directoryReads(server.methods)).toBe(0);
  });
});

describe('loadSkill on a server that reads directories', () => {
  it('loads from the entry alone: it reads the listed files and sends no directory read', async () => {
    const { client, server } = await connectToSkills(await pdfCatalog());

    const skill = await loadSkill(client, await theEntry(client));

    expect(skill.files).toHaveLength(Object.keys(PDF).length);
    expect(directoryReads(server.methods)).toBe(0);
  });
});
