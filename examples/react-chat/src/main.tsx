import { McpProvider } from '@mcp/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { notice } from './notices.js';
import { openServers } from './server-set.js';
import { describeError } from './text.js';

const root = createRoot(document.getElementById('root') as HTMLElement);

try {
  // Opened before the first render, in the browser only: the stored servers come back with their sessions.
  const servers = await openServers(notice);
  root.render(
    <StrictMode>
      <McpProvider servers={servers}>
        <App servers={servers} />
      </McpProvider>
    </StrictMode>,
  );
} catch (error) {
  root.render(<p role="alert">The stored servers could not be read: {describeError(error)}</p>);
}
