import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { ServersContext } from './hooks.js';
import { openServers } from './server-set.js';
import { describeError } from './text.js';

const root = createRoot(document.getElementById('root') as HTMLElement);
/** What the set worked around while restoring the stored servers, shown in the panel. */
const notices: string[] = [];

try {
  // Opened before the first render: the stored servers come back with their sessions, no handshake.
  const servers = await openServers((message) => notices.push(message));
  root.render(
    <StrictMode>
      <ServersContext.Provider value={servers}>
        <App notices={notices} />
      </ServersContext.Provider>
    </StrictMode>,
  );
} catch (error) {
  root.render(<p role="alert">The stored servers could not be read: {describeError(error)}</p>);
}
