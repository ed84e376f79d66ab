// What a `<!-- snippet: fragment -->` in the docs may use without declaring it: the program around the
// fragment, which the prose describes. Only fragments see these (scripts/docs/check-snippets.mjs checks
// them in a program of their own); a whole snippet declares or imports everything it uses.

/** A connected client, as the snippets before the fragment made it. */
declare const client: import('@mcp/core').Client;
