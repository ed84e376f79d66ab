import { describe, expect, it } from 'vitest';
import { OAuthHttp } from '../../src/auth/oauth-http.js';
import { AuthError, type OAuthOptions, OAuthProvider, type OAuthUrlPurpose } from '../../src/index.js';
import { addressClass } from '../../src/util/address-class.js';
import { approve, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';

/**
 * Which network a URL a server chose points at, in every spelling the URL
 * parser accepts: each row is a host as a server might write it, and the class
 * the client must see through it.
 */
const CLASSES: readonly [host: string, expected: ReturnType<typeof addressClass>][] = [
  // IPv4 loopback and "this host", in the spellings the parser normalises.
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['2130706433', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['127.1', 'loopback'],
  ['0.0.0.0', 'loopback'],
  ['0', 'loopback'],
  ['localhost', 'loopback'],
  ['LOCALHOST.', 'loopback'],
  ['api.localhost', 'loopback'],
  // IPv4 private networks and carrier-grade NAT.
  ['10.0.0.5', 'private'],
  ['10.255.255.255', 'private'],
  ['012.0.0.5', 'private'],
  ['167772165', 'private'],
  ['0xa.5', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['0xc0a80101', 'private'],
  ['100.64.0.1', 'private'],
  ['100.100.100.200', 'private'],
  ['100.127.255.255', 'private'],
  // IPv4 link-local, where clouds serve instance metadata.
  ['169.254.169.254', 'link-local'],
  ['2852039166', 'link-local'],
  ['0xa9fea9fe', 'link-local'],
  ['0251.0376.0251.0376', 'link-local'],
  ['169.254.0.1', 'link-local'],
  // A trailing dot, percent-encoding and full-width digits all come out as the address.
  ['169.254.169.254.', 'link-local'],
  ['%31%30.0.0.5', 'private'],
  ['\uff11\uff10.0.0.5', 'private'],
  ['user:pass@10.0.0.5', 'private'],
  // IPv6 loopback and unspecified.
  ['[::1]', 'loopback'],
  ['[0:0:0:0:0:0:0:1]', 'loopback'],
  ['[::]', 'loopback'],
  ['[0::0]', 'loopback'],
  // IPv4-mapped, in dotted and hex form, and IPv4-compatible and -translated.
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['[0:0:0:0:0:ffff:7f00:1]', 'loopback'],
  ['[::ffff:0.0.0.0]', 'loopback'],
  ['[::127.0.0.1]', 'loopback'],
  ['[::ffff:169.254.169.254]', 'link-local'],
  ['[::ffff:a9fe:a9fe]', 'link-local'],
  ['[::169.254.169.254]', 'link-local'],
  ['[::ffff:0:169.254.169.254]', 'link-local'],
  ['[::ffff:10.0.0.5]', 'private'],
  ['[::ffff:a00:5]', 'private'],
  ['[::ffff:192.168.0.1]', 'private'],
  ['[::ffff:100.64.0.1]', 'private'],
  // IPv6 unique-local (cloud metadata on IPv6 lives there too), site-local, link-local.
  ['[fc00::1]', 'private'],
  ['[fd00:ec2::254]', 'private'],
  ['[FDFF:FFFF::1]', 'private'],
  ['[fec0::1]', 'private'],
  ['[fe80::1]', 'link-local'],
  ['[febf::1]', 'link-local'],
  // IPv4 behind a gateway: NAT64 and 6to4 carrying an internal address, and local-use NAT64.
  ['[64:ff9b::169.254.169.254]', 'private'],
  ['[64:ff9b::a00:5]', 'private'],
  ['[64:ff9b:1::1]', 'private'],
  ['[2002:a9fe:a9fe::1]', 'private'],
  ['[2002:7f00:1::]', 'private'],
  // Public addresses, and names (never resolved).
  ['8.8.8.8', undefined],
  ['1.0.0.0', undefined],
  ['9.255.255.255', undefined],
  ['11.0.0.0', undefined],
  ['128.0.0.1', undefined],
  ['172.15.255.255', undefined],
  ['172.32.0.0', undefined],
  ['192.167.255.255', undefined],
  ['192.169.0.0', undefined],
  ['100.63.255.255', undefined],
  ['100.128.0.0', undefined],
  ['169.253.255.255', undefined],
  ['169.255.0.0', undefined],
  ['[2001:db8::1]', undefined],
  ['[2606:4700::1111]', undefined],
  ['[::2]', undefined],
  ['[::ffff:8.8.8.8]', undefined],
  ['[::8.8.8.8]', undefined],
  ['[64:ff9b::8.8.8.8]', undefined],
  ['[2002:808:808::1]', undefined],
  ['[fbff::1]', undefined],
  ['[fe00::1]', undefined],
  ['[ff02::1]', undefined],
  ['example.com', undefined],
  ['localhost.example.com', undefined],
  ['10.0.0.5.nip.io', undefined],
  ['metadata.google.internal', undefined],
];

describe('addressClass', () => {
  it.each(CLASSES)('https://%s/ is %s', (host, expected) => {
    expect(addressClass(new URL(`https://${host}/token`))).toBe(expected);
  });
});

/** The MCP servers a rule is judged for: on the internet, on loopback, on a private network, on the link. */
const PUBLIC = new URL('https://mcp.example.com/mcp');

/** Checks `endpoint` as a server at `server` would make the client fetch it, as the token endpoint. */
function check(endpoint: string, server = PUBLIC, options: Partial<OAuthOptions> = {}) {
  return new OAuthHttp(options, server).check(endpoint, 'token').then(
    (url) => url.href,
    (error: unknown) => error,
  );
}

describe('server-chosen URLs with literal internal addresses', () => {
  const refused = CLASSES.filter(([, expected]) => expected !== undefined);
  const allowed = CLASSES.filter(([, expected]) => expected === undefined);

  it.each(refused)('refuses https://%s/ named by a server on the internet (%s)', async (host) => {
    expect(await check(`https://${host}/token`)).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
  });

  it.each(allowed)('lets https://%s/ through from a server on the internet', async (host) => {
    expect(await check(`https://${host}/token`)).toBe(new URL(`https://${host}/token`).href);
  });

  it.each([
    ['https://10.0.0.7/mcp', 'https://10.0.0.5/token'],
    ['https://10.0.0.7/mcp', 'https://192.168.1.20/token'],
    ['https://[fd12::7]/mcp', 'https://10.0.0.5/token'],
    ['https://169.254.10.1/mcp', 'https://169.254.10.2/token'],
    ['http://localhost:3000/mcp', 'https://127.0.0.1:8443/token'],
    ['http://127.0.0.1:3000/mcp', 'http://localhost:8080/token'],
  ])('a server at %s, on that kind of network, may name %s', async (server, endpoint) => {
    expect(await check(endpoint, new URL(server))).toBe(endpoint);
  });

  it.each([
    ['https://10.0.0.7/mcp', 'https://169.254.169.254/latest/meta-data/'],
    ['https://10.0.0.7/mcp', 'https://127.0.0.1/token'],
    ['https://192.168.1.7/mcp', 'https://[::ffff:a9fe:a9fe]/token'],
    ['http://localhost:3000/mcp', 'https://10.0.0.5/token'],
    ['http://127.0.0.1:3000/mcp', 'https://169.254.169.254/token'],
    ['https://169.254.10.1/mcp', 'https://10.0.0.5/token'],
    ['https://mcp.internal.example/mcp', 'https://10.0.0.5/token'],
  ])('a server at %s may not name %s, of another kind', async (server, endpoint) => {
    expect(await check(endpoint, new URL(server))).toMatchObject({ name: 'AuthError', code: 'insecure_endpoint' });
  });

  it('names the URL and the kind of address in the refusal', async () => {
    const error = (await check('https://169.254.169.254/latest/meta-data/')) as Error;
    expect(error.message).toContain('https://169.254.169.254');
    expect(error.message).toContain('a link-local address');
    expect(((await check('https://10.0.0.5/token')) as Error).message).toContain('a private address');
    expect(((await check('https://127.0.0.1/token')) as Error).message).toContain('this machine');
  });
});

describe('allowUrl has the final word', () => {
  it('is told what the built-in rule refuses, and its true lets a private address through', async () => {
    const seen: [string, OAuthUrlPurpose, unknown][] = [];
    const allowUrl: OAuthOptions['allowUrl'] = (url, purpose, context) => {
      seen.push([url.host, purpose, context.refused]);
      return url.host === '10.0.0.5';
    };
    expect(await check('https://10.0.0.5/token', PUBLIC, { allowUrl })).toBe('https://10.0.0.5/token');
    expect(await check('https://169.254.169.254/token', PUBLIC, { allowUrl })).toMatchObject({ code: 'url_refused' });
    expect(await check('https://as.example.com/token', PUBLIC, { allowUrl })).toMatchObject({ code: 'url_refused' });
    expect(seen).toEqual([
      ['10.0.0.5', 'token', 'private'],
      ['169.254.169.254', 'token', 'link-local'],
      ['as.example.com', 'token', undefined],
    ]);
  });

  it('vetoes a URL the built-in rule lets through, on the same network as the server', async () => {
    const allowUrl = () => false;
    expect(await check('https://10.0.0.5/token', new URL('https://10.0.0.7/mcp'), { allowUrl })).toMatchObject({
      code: 'url_refused',
    });
  });

  it('cannot let plain http through from a server that is not on loopback', async () => {
    const allowUrl = () => true;
    expect(await check('http://10.0.0.5/token', PUBLIC, { allowUrl })).toMatchObject({ code: 'insecure_endpoint' });
  });
});

/** The OAuth test servers: each scenario's MCP server is on loopback (`http://127.0.0.1:<port>`). */
const bed = useAuthServers();

describe('a real MCP server whose resource metadata names an internal authorization server', () => {
  it.each(['https://169.254.169.254', 'https://10.0.0.5', 'https://[::ffff:a9fe:a9fe]', 'https://2852039166'])(
    'names %s: connect() fails with insecure_endpoint and nothing is requested there',
    async (issuer) => {
      const scenario = await bed.servers().createScenario({ authorizationServers: [issuer] });
      const asked: string[] = [];
      const recording: typeof fetch = (input, init) => {
        asked.push(new Request(input, init).url);
        return fetch(input, init);
      };
      const auth = new OAuthProvider({ fetch: recording, redirectUri: REDIRECT_URI, authorize: approve });
      const failure = await bed.connect(scenario.info().mcp, auth).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AuthError);
      expect(failure).toMatchObject({ code: 'insecure_endpoint' });
      // The resource metadata was read from the MCP server; the address it named was never asked.
      const mcp = new URL(scenario.info().mcp).origin;
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.filter((url) => !url.startsWith(mcp))).toEqual([]);
      expect(
        scenario.stats().requests.some((request) => request.path.startsWith('/.well-known/oauth-protected-resource')),
      ).toBe(true);
    },
  );

  it('reaches it once allowUrl allows it, told it is a private address', async () => {
    const scenario = await bed.servers().createScenario({ authorizationServers: ['https://10.0.0.5'] });
    const told: unknown[] = [];
    const asked: string[] = [];
    const auth = new OAuthProvider({
      redirectUri: REDIRECT_URI,
      authorize: approve,
      allowUrl: (url, _purpose, { refused }) => {
        if (url.hostname === '10.0.0.5') told.push(refused);
        return true;
      },
      // Stands in for the network: the allowed address answers nothing.
      fetch: (input, init) => {
        const url = new Request(input, init).url;
        asked.push(url);
        return url.startsWith('https://10.0.0.5') ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init);
      },
    });
    const failure = await bed.connect(scenario.info().mcp, auth).catch((error: unknown) => error);
    expect(told.length).toBeGreaterThan(0);
    expect(told.every((refused) => refused === 'private')).toBe(true);
    expect(asked.some((url) => url.startsWith('https://10.0.0.5/'))).toBe(true);
    // No metadata there: discovery fails on what it found, not on the address rule.
    expect(failure).toMatchObject({ name: 'AuthError', code: 'metadata_not_found' });
  });
});
