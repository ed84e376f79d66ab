import { describe, expect, it } from 'vitest';
import { appAllowAttribute, grantedPermissions } from '../../src/apps/app-allow.js';
import { viewSandbox, withCsp } from '../../src/apps/view-frame.js';

const CSP = "default-src 'none'; connect-src 'none'";
const META = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'none'">`;

describe('withCsp', () => {
  it('puts the policy right after the doctype, ahead of all the view wrote', () => {
    expect(withCsp('<!DOCTYPE html><html><head><script>x()</script>', CSP)).toBe(
      `<!DOCTYPE html>${META}<html><head><script>x()</script>`,
    );
    expect(withCsp('\uFEFF  <!doctype html>\n<p>hi', CSP)).toBe(`\uFEFF  <!doctype html>${META}\n<p>hi`);
  });

  it('puts the policy first when there is no doctype, or something comes before it', () => {
    expect(withCsp('<script>x()</script>', CSP)).toBe(`${META}<script>x()</script>`);
    expect(withCsp('<!-- <!DOCTYPE html> --><script>x()</script>', CSP)).toBe(
      `${META}<!-- <!DOCTYPE html> --><script>x()</script>`,
    );
    // An unclosed doctype is no doctype: the meta still comes first.
    expect(withCsp('<!DOCTYPE html <script>x()</script>', CSP).startsWith('<!DOCTYPE html <script>')).toBe(true);
  });

  it('escapes the policy so it cannot close its attribute', () => {
    expect(withCsp('', 'a"b<c&d')).toBe('<meta http-equiv="Content-Security-Policy" content="a&quot;b&lt;c&amp;d">');
  });
});

describe('viewSandbox', () => {
  it('is allow-scripts alone by default', () => {
    expect(viewSandbox(undefined)).toBe('allow-scripts');
  });

  it('adds forms and popups when asked, and drops every token that would loosen the sandbox', () => {
    expect(viewSandbox('allow-forms allow-popups')).toBe('allow-scripts allow-forms allow-popups');
    expect(
      viewSandbox(
        'allow-same-origin allow-top-navigation allow-top-navigation-by-user-activation allow-popups-to-escape-sandbox allow-modals allow-downloads allow-storage-access-by-user-activation',
      ),
    ).toBe('allow-scripts');
    expect(viewSandbox('ALLOW-FORMS\tallow-same-origin')).toBe('allow-scripts allow-forms');
  });
});

describe('grantedPermissions and appAllowAttribute', () => {
  const all = { camera: true, microphone: true, geolocation: true, clipboardWrite: true } as const;
  const allow = (declared: unknown, granted?: typeof all | Partial<typeof all>) =>
    appAllowAttribute(grantedPermissions(declared, granted));

  it('grants a feature only when the view declares it and the app allows it', () => {
    expect(grantedPermissions({ camera: {}, microphone: {} }, { camera: true })).toEqual({ camera: {} });
    expect(allow({ camera: {}, microphone: {} }, { camera: true })).toBe('camera');
    expect(allow({ clipboardWrite: {}, geolocation: {} }, all)).toBe('geolocation; clipboard-write');
    expect(allow({ camera: {} }, {})).toBe('');
    expect(allow({ camera: {} }, undefined)).toBe('');
    expect(allow({}, all)).toBe('');
  });

  it('ignores anything that is not a declared permission', () => {
    expect(allow({ camera: false, microphone: null, usb: {}, 'display-capture': {} }, all)).toBe('');
    expect(allow('camera; usb *', all)).toBe('');
    expect(allow(null, all)).toBe('');
    expect(allow(Object.create({ camera: {} }), all)).toBe('');
  });

  it('names the origin a feature is delegated to when given one', () => {
    expect(appAllowAttribute({ camera: {}, microphone: {} }, 'https://sandbox.example.com')).toBe(
      'camera https://sandbox.example.com; microphone https://sandbox.example.com',
    );
  });
});
