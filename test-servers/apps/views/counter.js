// The counter view of `show-counter`: every host feature a well-behaved view
// uses, one button each, each outcome in `#outcome` under the button's id.
import { attempt, button, connectView, report, resultText, text } from './view-kit.js';

let count = 0;

const app = await connectView('apps-test-counter', (app) => {
  app.ontoolinput = ({ arguments: args }) => {
    text('#tool-input', JSON.stringify(args ?? {}));
    if (typeof args?.start === 'number') count = args.start;
    text('#count', String(count));
  };
  app.ontoolresult = (result) => text('#tool-result', resultText(result));
  app.ontoolcancelled = ({ reason }) => text('#tool-result', `cancelled: ${reason ?? ''}`);
  app.onhostcontextchanged = (context) => showContext(context);
  app.onteardown = () => {
    report('teardown', 'received');
    return {};
  };
});

if (app !== undefined) {
  showContext(app.getHostContext() ?? {});
  text('#count', String(count));

  button('increment', 'Increment', () =>
    attempt('increment', async () => {
      const result = await app.callServerTool({ name: 'increment', arguments: { value: count } });
      if (result.isError) throw new Error(resultText(result));
      count = result.structuredContent?.value ?? count;
      text('#count', String(count));
      return count;
    }),
  );
  button('read', 'Read resource', () =>
    attempt('read', async () => {
      const { contents } = await app.readServerResource({ uri: 'test://apps/greeting' });
      return contents[0]?.text;
    }),
  );
  // ext-apps 2.x views send an array of blocks where the spec's prose shows one.
  button('message', 'Send message', () =>
    attempt('message', () =>
      app.sendMessage({ role: 'user', content: [{ type: 'text', text: `The counter is at ${count}` }] }),
    ),
  );
  button('link', 'Open link', () => attempt('link', () => app.openLink({ url: 'https://example.com/counter' })));
  button('fullscreen', 'Fullscreen', () =>
    attempt('fullscreen', async () => (await app.requestDisplayMode({ mode: 'fullscreen' })).mode),
  );
  button('context', 'Update model context', () =>
    attempt('context', () =>
      app.updateModelContext({
        content: [{ type: 'text', text: `counter=${count}` }],
        structuredContent: { count },
      }),
    ),
  );
  button('log', 'Log', () =>
    attempt('log', () => app.sendLog({ level: 'info', logger: 'counter', data: `count=${count}` })),
  );
  // Taller content: autoResize (on by default) sends ui/notifications/size-changed.
  button('grow', 'Grow', async () => {
    const block = document.createElement('div');
    block.className = 'filler';
    block.style.height = '200px';
    document.body.append(block);
    report('grow', `height ${document.documentElement.scrollHeight}`);
  });
}

function showContext(context) {
  if (context.theme !== undefined) {
    text('#theme', context.theme);
    document.documentElement.dataset.theme = context.theme;
  }
  if (context.displayMode !== undefined) text('#display-mode', context.displayMode);
  if (context.locale !== undefined) text('#locale', context.locale);
}
