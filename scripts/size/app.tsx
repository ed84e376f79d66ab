// The smallest realistic React component on @mcp/react: a provider holding one
// server by URL, and a component that calls `useMcp` and shows the server's tool
// names. scripts/bundle-size.mjs bundles it (react external, split at dynamic
// imports) to measure the bytes an app loads for our app layer: @mcp/react, the
// connection layer and @mcp/core, every dependency included.
import { McpProvider, useMcp } from '@mcp/react';
import type { ReactNode } from 'react';

function Tools(): ReactNode {
  const notes = useMcp('notes');
  if (notes.status !== 'ready') return <p>{notes.status}</p>;
  return (
    <ul>
      {notes.tools.map((tool) => (
        <li key={tool.name}>{tool.name}</li>
      ))}
    </ul>
  );
}

/** The app: rendered by the page with the server's URL. */
export function App({ url }: { readonly url: string }): ReactNode {
  return (
    <McpProvider configs={[{ name: 'notes', url }]}>
      <Tools />
    </McpProvider>
  );
}
