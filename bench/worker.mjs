#!/usr/bin/env node
/**
 * One client process of the benchmark: `node --expose-gc bench/worker.mjs '<spec>'`,
 * spec = `{ client, phase: 'load' | 'calls' | 'all', target, params }`. Prints one line
 * `BENCH_RESULT <json>` and exits (clients may leave streams open; they are not waited for).
 */
import { loadAdapter } from './clients/adapter.mjs';
import { calls, loadPhase } from './lib/workloads.mjs';

const spec = JSON.parse(process.argv[2] ?? '{}');
let result;
try {
  const { load } = await loadAdapter(spec.client);
  if (spec.phase === 'calls') {
    result = await calls(await load(spec.target.kind), spec.target, spec.params);
  } else {
    const { make, figures } = await loadPhase(load, spec.target);
    result = spec.phase === 'all' ? { ...figures, ...(await calls(make, spec.target, spec.params)) } : figures;
  }
} catch (error) {
  result = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`, () => process.exit(0));
