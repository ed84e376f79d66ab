import { describe, expect, it } from 'vitest';
import { OAuthProvider } from '../../src/index.js';
import { approve, REDIRECT_URI, useAuthServers } from './auth-scenarios.js';

/**
 * Every redirect URI is `localhost` or https (MCP Authorization, 2025-03-26 on):
 * the OAuthProvider refuses any other at construction, so nothing is registered
 * with it and no user is sent anywhere with it.
 */
const bed = useAuthServers();

const ACCEPTED = [
  'https://app.example.com/oauth/callback',
  'https://localhost:8443/callback',
  'http://localhost:3000/callback',
  'http://127.0.0.1:49152/callback',
  'http://[::1]:8080/callback',
  'http://app.localhost/callback',
];

const REFUSED = [
  'http://app.example.com/oauth/callback',
  'http://10.0.0.5/callback',
  'http://localhost.example.com/callback',
  'com.example.app:/oauth/callback',
  'myapp://localhost/callback',
  'javascript:alert(1)',
  'ftp://localhost/callback',
  '/callback',
  '',
];

describe('redirect URIs', () => {
  it.each(ACCEPTED)('accepts %s as redirectUri', (redirectUri) => {
    expect(() => new OAuthProvider({ redirectUri })).not.toThrow();
  });

  it.each(REFUSED)('refuses %s as redirectUri with a TypeError naming the option', (redirectUri) => {
    expect(() => new OAuthProvider({ redirectUri })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        message: expect.stringMatching(/^OAuthOptions\.redirectUri must be an https URL.*got /),
      }),
    );
  });

  it('refuses a clientMetadata.redirect_uris entry that is neither localhost nor https, naming which', () => {
    const clientMetadata = { redirect_uris: ['https://app.example.com/callback', 'http://app.example.com/callback'] };
    expect(() => new OAuthProvider({ redirectUri: REDIRECT_URI, clientMetadata })).toThrow(
      /^OAuthOptions\.clientMetadata\.redirect_uris\[1\] must be an https URL.*"http:\/\/app\.example\.com\/callback"/,
    );
  });

  it('registers a loopback redirect URI and completes the flow with it', async () => {
    const scenario = await bed.servers().createScenario();
    const client = await bed.connect(
      scenario.info().mcp,
      new OAuthProvider({ redirectUri: 'http://127.0.0.1:49152/callback', authorize: approve }),
    );
    await client.listTools();
    const [registration] = scenario.stats().registrations;
    expect(registration?.metadata.redirect_uris).toEqual(['http://127.0.0.1:49152/callback']);
  });
});
