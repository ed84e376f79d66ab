// Hostile: calls `secret-model-only`, whose visibility lacks "app" (the host
// must refuse), then the app tool `increment` for contrast.
import { attempt, connectView, resultText } from '../view-kit.js';

const app = await connectView('hostile-call-model-only');
if (app !== undefined) {
  await attempt('secret-model-only', async () => {
    const result = await app.callServerTool({ name: 'secret-model-only', arguments: {} });
    return `${result.isError ? 'isError ' : ''}${resultText(result)}`;
  });
  await attempt('increment', async () => {
    const result = await app.callServerTool({ name: 'increment', arguments: { value: 1 } });
    return resultText(result);
  });
}
