import { describe, expect, it } from 'vitest';
import { assertBrowsable } from '../../src/browser/index.js';
import { isLoopback } from '../../src/transport/index.js';

/** One rule says which URLs name this machine, in every spelling the URL parser accepts. */
const LOCAL = [
  'http://localhost/',
  'http://LOCALHOST:8080/',
  'http://localhost./',
  'http://app.localhost/',
  'http://app.localhost./',
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f.1/',
  'http://127.255.255.254/',
  'http://0.0.0.0:8080/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:0.0.0.0]/',
  'http://[::127.0.0.1]/',
];
const ELSEWHERE = [
  'http://example.com/',
  'http://localhost.example.com/',
  'http://notlocalhost/',
  'http://128.0.0.1/',
  'http://10.0.0.1/',
  'http://1.0.0.0/',
  'http://[::2]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:128.0.0.1]/',
  'http://[2001:db8::1]/',
  'http://[fe80::1]/',
];

describe('isLoopback', () => {
  it.each(LOCAL)('%s is this machine', (url) => {
    expect(isLoopback(new URL(url))).toBe(true);
  });

  it.each(ELSEWHERE)('%s is not', (url) => {
    expect(isLoopback(new URL(url))).toBe(false);
  });
});

describe('assertBrowsable (@mcp/core/browser)', () => {
  it.each([
    'https://as.example/authorize',
    'http://localhost:3000/authorize',
    'http://localhost.:3000/authorize',
    'http://app.localhost/authorize',
    'http://127.1/authorize',
    'http://[::ffff:127.0.0.1]/authorize',
  ])('lets the user see %s', (url) => {
    expect(() => assertBrowsable(new URL(url))).not.toThrow();
  });

  it.each([
    'http://as.example/authorize',
    'http://localhost.example.com/authorize',
    'javascript:alert(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
  ])('refuses %s with insecure_endpoint', (url) => {
    expect(() => assertBrowsable(new URL(url))).toThrow(
      expect.objectContaining({ name: 'AuthError', code: 'insecure_endpoint' }),
    );
  });
});
