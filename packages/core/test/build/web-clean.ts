import { expect } from 'vitest';

/**
 * What a web or Workers bundle must never contain: Node built-ins, CommonJS
 * `require`, or code generation (blocked by CSP and by workerd). DESIGN: core
 * imports web standards only.
 */
export function expectWebClean(code: string, label?: string): void {
  expect(code, label).not.toMatch(/["']node:[\w/]+["']/);
  expect(code, label).not.toMatch(/\brequire\s*\(/);
  expect(code, label).not.toMatch(/\beval\s*\(/);
  expect(code, label).not.toMatch(/\bnew\s+Function\b/);
}
