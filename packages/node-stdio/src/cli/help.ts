/** What `mcp --help` prints. */
export const HELP = `mcp: talk to an MCP server over stdio or HTTP from the command line

Usage (options go anywhere before <server>):
  mcp inspect                                     <server>   who the server is and what it offers
  mcp call <tool> [<args>]                        <server>   call a tool and print its result
  mcp read <uri> [--out <file> [--force]]         <server>   read a resource, or save its body
  mcp read <uri template> name=value…             <server>   read a resource from its template
  mcp prompt <name> [<args>]                      <server>   render a prompt
  mcp complete prompt <name> <arg> [<value>] [<context>]     suggest values for an argument
  mcp complete resource <uri template> <arg> [<value>] [<context>]
  mcp bridge <url> [bridge options]                          serve a remote server on stdio

<server> (mcp complete takes one too) is "-- <command…>", a child process started with
everything after "--" (no shell), or "--url <url>", a server over Streamable HTTP (or
HTTP+SSE, when that is all it speaks).
<args> and <context> are a JSON object ('{"a": 1}'), @file to read it from a file, or @- from stdin.
A template's {name} is replaced by its value, percent-encoded (RFC 6570 level 1).

At a terminal (stdin and stderr), mcp asks you what the server asks (elicitation: form fields,
or consent to a URL) and mcp call shows its progress on one line; elsewhere elicitation is
declined and progress is plain lines on stderr. A sampling request is shown, then refused.

Options:
  --timeout <ms>    per-request timeout, the handshake included (default 60000); a call
                    reporting progress waits on, up to 10 minutes, unless --timeout is given
  --env KEY=VALUE   set a variable for the server (repeatable); of yours it inherits only
                    PATH, HOME, USER, LOGNAME, SHELL, TERM (Windows: its system variables)
  --inherit-env     give the server all of your environment (API keys included)
  --url <url>       a remote server; when it requires OAuth, your browser opens to authorize
  --header 'N: v'   with --url: a header sent on every request (repeatable)
  --token-env VAR   with --url: send "Authorization: Bearer $VAR" instead of OAuth
  --out <file>      mcp read: write the body (a blob decoded) to <file>; --force replaces one
  --json            machine-readable output
  -q, --quiet       hide the server's stderr, log messages, progress and sampling requests
  --allow-sampling  at a terminal, type the reply to a server's sampling request yourself
  -h, --help        show this help
  -v, --version     show the version

Bridge options (mcp bridge: a stdio MCP server forwarding to a Streamable HTTP one),
besides --header and --token-env:
  --token-store <dir>      OAuth tokens kept there between runs (default
                           $XDG_CONFIG_HOME/mcp/oauth, else ~/.config/mcp/oauth; files 0600)
  --max-in-flight <n>      requests forwarded at once; more are refused (default 64)
  --max-line-bytes <n>     longest stdin line; a longer one is dropped (default 67108864)

Exit status: 0 ok; 1 failed, or the tool returned isError; 2 usage error; 130 interrupted.

Examples:
  mcp inspect -- node server.mjs
  mcp call add '{"a": 2, "b": 3}' -- node server.mjs
  mcp read file:///notes.txt --json -- npx -y some-mcp-server
  mcp call search '{"q": "mcp"}' --env API_KEY="$API_KEY" -- node server.mjs
  mcp inspect --url https://example.com/mcp --token-env MCP_TOKEN
  mcp call search @args.json --url https://example.com/mcp --header 'X-Api-Key: k'
  mcp read 'file:///{path}' path=notes/today.md -- node server.mjs
  mcp read file:///logo.png --out logo.png -- node server.mjs
  mcp complete prompt greeting name Al -- node server.mjs
  mcp bridge https://example.com/mcp --token-env MCP_TOKEN
`;
