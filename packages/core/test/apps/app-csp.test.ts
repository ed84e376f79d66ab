import { describe, expect, it } from 'vitest';
import { buildAppCsp, MAX_APP_CSP_SOURCES } from '../../src/apps/app-csp.js';
import { AppViewError } from '../../src/apps/app-view-error.js';

/** The policy as a map of directive → sources, so a test reads one directive at a time. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split('; ').map((part) => {
      const [name = '', ...sources] = part.split(' ');
      return [name, sources];
    }),
  );
}

function refusal(csp: unknown, options?: { allowLoopback?: boolean }): AppViewError {
  try {
    buildAppCsp(csp, options);
  } catch (error) {
    expect(error).toBeInstanceOf(AppViewError);
    expect((error as AppViewError).code).toBe('invalid_csp');
    return error as AppViewError;
  }
  throw new Error(`accepted ${JSON.stringify(csp)}`);
}

describe('buildAppCsp', () => {
  it("without ui.csp is the spec's restrictive default: nothing loads from anywhere", () => {
    const policy = directives(buildAppCsp(undefined));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    // The spec's 'self' is left out: in the sandbox proxy it names the proxy's own origin.
    expect(policy.get('script-src')).toEqual(["'unsafe-inline'"]);
    expect(policy.get('style-src')).toEqual(["'unsafe-inline'"]);
    expect(policy.get('img-src')).toEqual(['data:']);
    expect(policy.get('font-src')).toEqual(["'none'"]);
    expect(policy.get('media-src')).toEqual(['data:']);
    expect(policy.get('connect-src')).toEqual(["'none'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(buildAppCsp({})).toBe(buildAppCsp(undefined));
    expect(buildAppCsp({ connectDomains: [], resourceDomains: [] })).toBe(buildAppCsp(undefined));
  });

  it('opens each directive only to the origins declared for it', () => {
    const policy = directives(
      buildAppCsp({
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://cdn.example.com', 'https://*.static.example.net'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://base.example.com'],
      }),
    );
    expect(policy.get('connect-src')).toEqual(['https://api.example.com', 'wss://live.example.com']);
    for (const name of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src']) {
      expect(policy.get(name)).toEqual(
        expect.arrayContaining(['https://cdn.example.com', 'https://*.static.example.net']),
      );
      expect(policy.get(name)).not.toContain('https://api.example.com');
    }
    expect(policy.get('frame-src')).toEqual(['https://www.youtube.com']);
    expect(policy.get('base-uri')).toEqual(['https://base.example.com']);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
  });

  it('writes origins in lower case, without a trailing slash, once each', () => {
    const policy = directives(
      buildAppCsp({
        connectDomains: ['HTTPS://API.Example.com/', 'https://api.example.com', 'https://api.example.com:8443'],
      }),
    );
    expect(policy.get('connect-src')).toEqual(['https://api.example.com', 'https://api.example.com:8443']);
  });

  it('ignores members a later revision may add', () => {
    expect(buildAppCsp({ somethingNew: ['https://x.example.com'] })).toBe(buildAppCsp(undefined));
  });

  // Each of these tries to smuggle a directive, a keyword or a wider source into the policy.
  const injections = [
    'https://a.example.com; script-src *',
    "https://a.example.com 'unsafe-eval'",
    "'unsafe-inline'",
    "'unsafe-eval'",
    "'self'",
    "'none'",
    "'nonce-abc'",
    "'strict-dynamic'",
    'https://a.example.com\nscript-src *',
    'https://a.example.com\tdata:',
    'https://a.example.com,https://b.example.com',
    '*',
    'https://*',
    'https://*.com',
    '*.example.com',
    'https://a.*.example.com',
    'https://example.com:*',
    'data:',
    'blob:',
    'https:',
    'javascript:alert(1)',
    'http://api.example.com',
    'ws://live.example.com',
    'ftp://files.example.com',
    'https://example.com/path',
    'https://example.com/?q=1',
    'https://example.com#x',
    'https://user:pass@example.com',
    'https://exa"mple.com',
    'https://exa<mple.com',
    'https://-bad-.example.com',
    'https://example.com:0',
    'https://example.com:70000',
    '',
    ' https://example.com',
    `https://${'a'.repeat(300)}.com`,
  ];
  for (const entry of injections) {
    it(`refuses the connect origin ${JSON.stringify(entry.slice(0, 40))} with invalid_csp`, () => {
      const error = refusal({ connectDomains: [entry] });
      expect(error.message).toContain('ui.csp.connectDomains');
    });
  }

  it('refuses injections in every list, not just connectDomains', () => {
    for (const field of ['resourceDomains', 'frameDomains', 'baseUriDomains']) {
      expect(refusal({ [field]: ['https://ok.example.com; default-src *'] }).message).toContain(`ui.csp.${field}`);
    }
    // wss: is for connections only.
    expect(refusal({ resourceDomains: ['wss://live.example.com'] }).message).toContain('resourceDomains');
  });

  it('refuses a csp of the wrong shape', () => {
    for (const csp of [
      'default-src *',
      42,
      [],
      { connectDomains: 'https://a.example.com' },
      { connectDomains: [42] },
    ]) {
      refusal(csp);
    }
  });

  it(`refuses a list of more than ${MAX_APP_CSP_SOURCES} origins rather than cut it`, () => {
    const many = Array.from({ length: MAX_APP_CSP_SOURCES + 1 }, (_, index) => `https://h${index}.example.com`);
    expect(refusal({ resourceDomains: many }).message).toContain(`more than ${MAX_APP_CSP_SOURCES}`);
    expect(() => buildAppCsp({ resourceDomains: many.slice(1) })).not.toThrow();
  });

  it('takes http: and ws: on loopback hosts only when asked to, for development', () => {
    const local = { connectDomains: ['http://127.0.0.1:8788', 'ws://localhost:9000', 'http://[::1]:80'] };
    refusal(local);
    expect(directives(buildAppCsp(local, { allowLoopback: true })).get('connect-src')).toEqual(local.connectDomains);
    // Loopback means the machine itself: another host over http stays refused.
    refusal({ connectDomains: ['http://192.168.1.10'] }, { allowLoopback: true });
    refusal({ connectDomains: ['http://*.localhost'] }, { allowLoopback: true });
  });

  it('puts no attacker text into the error beyond a short, quoted cut', () => {
    const error = refusal({ connectDomains: [`https://x.com; ${'y'.repeat(10_000)}`] });
    expect(error.message.length).toBeLessThan(300);
  });
});
