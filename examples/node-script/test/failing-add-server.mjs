#!/usr/bin/env node
// The reference server over stdio (test-servers/stdio.mjs), except that its `add` tool runs and
// fails: every call answers a result with `isError: true`, as a server does when a tool cannot do
// its job. The handshake, the listing and the wire are the reference server's own.
import { errorResult } from '../../../test-servers/reference/tool-results.mjs';
import { addTool } from '../../../test-servers/reference/tools-basic.mjs';

addTool.run = async ({ a, b }) => errorResult(`the adder is out of order (asked ${a} + ${b})`);
await import('../../../test-servers/stdio.mjs');
